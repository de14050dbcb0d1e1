package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file generates the benchmark corpus: realistic, varied chat
// messages in several scripts, deterministically from a seeded PRNG.

var corpusLangs = []struct {
	weight int
	words  string
}{
	{70, `the a to of and is in it you that for on this with be are can not have
		but or as if we your do was at from by will file code function error test
		run build use should would need here what so just one there data session
		message search index query database migration server config value return
		type string user model memory cache request response token stream json
		package module import output input line path key time change fix update
		version release deploy commit branch merge review issue bug feature API
		CLI terminal window buffer history journal transcript encryption store
		provider context prompt assistant tool call result result because when
		then also make sure first next after before again check works failed`},
	{8, `a o de que e do da em um para é com não uma os no se na por mais as dos
		como mas foi ao ele das tem à seu sua ou ser quando muito há nos já está
		eu também só pelo pela até isso ela entre era depois sem mesmo aos ação
		migração sessão função configuração versão conexão informação código`},
	{6, `der die und in den von zu das mit sich des auf für ist im dem nicht ein
		eine als auch es an werden aus er hat dass sie nach wird bei einer um am
		sind noch wie einem über einen so zum war haben nur oder aber vor Ärger
		Straße größer Übersetzung Schlüssel Datenbank Fehler Prüfung Änderung`},
	{6, `и в не на я быть он с что а по это она этот к но они мы как из у который
		то за свой что весь год от так о для ты же все тот мочь вы человек такой
		его сказать только или ещё бы себя один как уже до время если сам когда
		БД база данных ошибка сервер миграция сессия поиск индекс запрос файл`},
	{3, `και το να του η της με που την σε από για τα είναι θα δεν στο ο τον των
		οι στην ένα μια αλλά όταν ΣΟΦΟΣ σοφός άνθρωπος βάση δεδομένων σφάλμα`},
	{4, `数据库 迁移 错误 服务器 会话 搜索 索引 查询 文件 函数 测试 我们 你们 他们
		这个 那个 因为 所以 但是 如果 已经 可以 需要 应该 问题 结果 配置 版本`},
	{3, `データベース の を に は が で と した する です ます エラー サーバー
		セッション 検索 インデックス 移行 ファイル 関数 テスト 設定 結果 問題`},
}

var corpusEmoji = strings.Fields("👍 🎉 🚀 😀 🙏 👨‍👩‍👧‍👦 🇵🇹 🇯🇵 ❤️ 🧑🏿‍💻")

var syllables = strings.Fields("ka ri to mo na shi ve lo pra dun es tor bel qui zan fe gor lin pa ux wy ro ste mi")

// corpus returns n messages of about avgBytes bytes each, the same for the
// same arguments.
func corpus(n, avgBytes int) []Doc {
	rng := rand.New(rand.NewPCG(42, 2026))
	type lang struct {
		weight int
		words  []string
		zipf   *rand.Zipf
	}
	var langs []lang
	total := 0
	for _, l := range corpusLangs {
		ws := strings.Fields(l.words)
		if l.weight == 70 { // a long tail of rarer invented words
			for i := range 40000 {
				w := ""
				for k := 0; k < 2+i%3; k++ {
					w += syllables[rng.IntN(len(syllables))]
				}
				ws = append(ws, w)
			}
		}
		langs = append(langs, lang{l.weight, ws, rand.NewZipf(rng, 1.07, 2, uint64(len(ws)-1))})
		total += l.weight
	}
	docs := make([]Doc, n)
	var b strings.Builder
	for i := range docs {
		pick := rng.IntN(total)
		l := langs[0]
		for _, c := range langs {
			if pick < c.weight {
				l = c
				break
			}
			pick -= c.weight
		}
		budget := int(rng.ExpFloat64() * float64(avgBytes))
		b.Reset()
		sentence := 0
		for b.Len() < budget+8 {
			w := l.words[l.zipf.Uint64()]
			switch r := rng.IntN(100); {
			case r < 2:
				w = fmt.Sprintf("%x", rng.Uint64()>>rng.IntN(40)) // hashes, ids
			case r < 4:
				w = fmt.Sprint(rng.IntN(10000))
			case r < 5:
				w = corpusEmoji[rng.IntN(len(corpusEmoji))]
			case r < 6:
				w = "internal/" + l.words[l.zipf.Uint64()] + "/" + w + ".go"
			}
			if sentence == 0 && w != "" {
				r, size := utf8.DecodeRuneInString(w)
				w = string(unicode.ToUpper(r)) + w[size:]
			}
			b.WriteString(w)
			sentence++
			switch r := rng.IntN(100); {
			case r < 6:
				b.WriteString(". ")
				sentence = 0
			case r < 8:
				b.WriteString(", ")
			case r < 9:
				b.WriteString("\n\n")
				sentence = 0
			default:
				b.WriteByte(' ')
			}
		}
		docs[i] = Doc{
			Source:   fmt.Sprintf("session-%04d", i/250),
			Position: i%250 + 1,
			Role:     [...]string{"user", "assistant", "tool"}[rng.IntN(3)],
			Text:     strings.Clone(b.String()),
		}
	}
	// Keep all the text in one string, so heap figures are not blurred
	// by fragmentation.
	b.Reset()
	size := 0
	for _, d := range docs {
		size += len(d.Text)
	}
	b.Grow(size)
	for _, d := range docs {
		b.WriteString(d.Text)
	}
	all := b.String()
	for i := range docs {
		n := len(docs[i].Text)
		docs[i].Text, all = all[:n], all[n:]
	}
	return docs
}
