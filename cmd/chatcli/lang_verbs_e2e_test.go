package main

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestHeadlessVerbsSpeakPortuguese: session list, show, fork, delete,
// restore, tree and search and storage print their headings and lines in Portuguese under
// CHATCLI_LANG=pt-BR and in English under CHATCLI_LANG=en.
func TestHeadlessVerbsSpeakPortuguese(t *testing.T) {
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"pt-BR", []string{"Nenhuma sessão salva encontrada em ", "NOME  MENSAGENS  ATUALIZADA", "Sessão demo · 2 mensagens · atualizada em ",
			"│    De:   demo\n│    Para: d2\n", "Sessão 'd2' deletada com sucesso do disco.", "Sessão 'd2' restaurada da lixeira.",
			"Armazenamento ", "ARMAZENAMENTO", "REMOVÍVEL AGORA", "└─ d2 · fork em 2 · 2 mensagens", "Nenhum resultado.\n"}},
		{"en", []string{"No saved sessions in ", "NAME  MESSAGES  UPDATED", "Session demo · 2 messages · updated ",
			`Forked "demo" into "d2" (2 messages).`, `Session "d2" moved to the trash`, `Restored session "d2" from the trash.`,
			"Store ", "STORE", "REMOVABLE NOW", "└─ d2 · fork at 2 · 2 messages", "No matches.\n"}},
	} {
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + c.lang}
		var out strings.Builder
		for _, step := range []struct {
			stdin string
			args  []string
		}{
			{"", []string{"session", "list"}},
			{"hello\n/session save demo\n", nil},
			{"", []string{"session", "list"}},
			{"", []string{"session", "show", "demo"}},
			{"", []string{"session", "fork", "demo", "d2"}},
			{"", []string{"session", "delete", "d2", "--yes"}},
			{"", []string{"session", "restore", "d2"}},
			{"", []string{"storage"}},
			{"", []string{"session", "tree"}},
			{"", []string{"session", "search", "zanzibar"}},
		} {
			o, errOut, code := run(t, env, step.stdin, step.args...)
			if code != 0 {
				t.Fatalf("%s %v: exit %d\n%s", c.lang, step.args, code, errOut)
			}
			if step.args != nil {
				out.WriteString(o)
			}
		}
		for _, want := range c.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: %q missing from:\n%s", c.lang, want, out.String())
			}
		}
	}
}

// TestEngineNoticesSpeakPortuguese: the notice of a compaction before
// sending is said in the language CHATCLI_LANG picks.
func TestEngineNoticesSpeakPortuguese(t *testing.T) {
	long := strings.Repeat("palavra ", 1500) + "\n"
	for lang, want := range map[string]string{
		"pt-BR": "nota: a conversa tem cerca de ",
		"en":    "note: the conversation is about ",
	} {
		_, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_CONTEXT_WINDOW=1024"}, long+long)
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, %q missing from:\n%s", lang, code, want, errOut)
		}
	}
}

// TestNoticesSpeakPortugueseWithTheirLabels: under CHATCLI_LANG=pt-BR the
// REPL's notices carry the Portuguese label ("nota: "), compaction's
// progress is Portuguese, and so is the line naming the autosave made on
// exit; English keeps "note: " and its own lines.
func TestNoticesSpeakPortugueseWithTheirLabels(t *testing.T) {
	long := strings.Repeat("palavra ", 1500) + "\n"
	for lang, want := range map[string][]string{
		"pt-BR": {"nota: Compactando o histórico (", "nota: Compactado (nível ", "Conversa salva como 'autosave-"},
		"en":    {"note: Compacting history (", "note: Compacted (level ", `Conversation saved as "autosave-`},
	} {
		_, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_CONTEXT_WINDOW=1024"}, long+long)
		for _, w := range want {
			if code != 0 || !strings.Contains(errOut, w) {
				t.Errorf("%s: exit %d, %q missing from:\n%s", lang, code, w, errOut)
			}
		}
	}
}

// TestJSONNoticesKeepTheirNumbersInEveryLanguage: -p --json carries the
// same keys in every language, and a Portuguese notice inside it writes
// its numbers as the English does (4004, not 4.004), while the same
// notice on a terminal's error stream groups them the Portuguese way.
func TestJSONNoticesKeepTheirNumbersInEveryLanguage(t *testing.T) {
	long := strings.Repeat("palavra ", 1500)
	keys := map[string]string{}
	for lang, want := range map[string]string{"pt-BR": "a conversa tem cerca de 4004 tokens", "en": "the conversation is about 4004 tokens"} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_CONTEXT_WINDOW=1024"}, long, "-p", "-", "--json")
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
			t.Fatalf("%s: exit %d, %v\n%s\n%s", lang, code, err, out, errOut)
		}
		notices, _ := v["notices"].([]any)
		if len(notices) == 0 || !strings.Contains(notices[0].(string), want) {
			t.Errorf("%s: notices %q, want the first to say %q", lang, notices, want)
		}
		var names []string
		for k := range v {
			names = append(names, k)
		}
		sort.Strings(names)
		keys[lang] = strings.Join(names, ",")
	}
	if keys["pt-BR"] != keys["en"] {
		t.Errorf("keys differ by language: %s / %s", keys["pt-BR"], keys["en"])
	}
	_, errOut, _ := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=pt-BR", "CHATCLI_CONTEXT_WINDOW=1024"}, long, "-p", "-")
	if !strings.Contains(errOut, "nota: a conversa tem cerca de 4.004 tokens") {
		t.Errorf("the notice on the error stream:\n%s", errOut)
	}
}

// TestStorageSpeaksPortuguese: chatcli storage names its stores and rules
// in Portuguese, and storage prune says its plan and what it removed, in
// Portuguese under CHATCLI_LANG=pt-BR and as before in English.
func TestStorageSpeaksPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"sessões que você nomeou", "nunca removidas automaticamente", "para a lixeira quando não atualizadas há 90d (CHATCLI_SESSION_TTL)",
			"Nada a remover.\n", "Esvaziar a lixeira apagaria de vez 1 sessão (", "Lixeira esvaziada: 1 sessão apagada ("},
		"en": {"sessions you named", "never removed automatically", "to the trash when not updated for 90d (CHATCLI_SESSION_TTL)",
			"Nothing to remove.\n", "Emptying the trash would delete 1 trashed session (", "Emptied the trash: 1 trashed session deleted ("},
	} {
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang}
		var all strings.Builder
		for _, args := range [][]string{{"-p", "hi", "--name", "x"}, {"storage"}, {"session", "delete", "x", "--yes"},
			{"storage", "prune", "--empty-trash"}, {"storage", "prune", "--empty-trash", "--apply"}} {
			out, errOut, code := run(t, env, "", args...)
			if code != 0 {
				t.Fatalf("%s %v: exit %d\n%s", lang, args, code, errOut)
			}
			all.WriteString(out)
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}

// TestVerifyExportAndRekeySpeakPortuguese: storage verify's report,
// session export's line (ChatCLI's "Exportadas N entradas para …") and
// storage rekey's lines are Portuguese under CHATCLI_LANG=pt-BR and as
// before in English.
func TestVerifyExportAndRekeySpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"Verificado 1 arquivo de sessão, 0 sessões na lixeira e 1 journal.\nEstá tudo íntegro.\n",
			"Exportadas 2 entradas para ", " (fonte: journal).\n", ": selado com a nova chave\n",
			"2 arquivos selados de novo, 0 já com a nova chave, 0 com falha\n"},
		"en": {"Checked 1 session file, 0 trashed sessions and 1 journal.\nEverything is sound.\n",
			"Exported 2 messages to ", " (source: journal).\n", ": sealed under the new key\n",
			"2 files re-sealed, 0 already under the new key, 0 failed\n"},
	} {
		home := t.TempDir()
		env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}
		var all strings.Builder
		for _, c := range []struct {
			env  []string
			args []string
		}{{env, []string{"-p", "hi", "--name", "x"}}, {env, []string{"storage", "verify"}},
			{env, []string{"session", "export", "x", "md", filepath.Join(home, "x.md")}},
			{append(env, "CHATCLI_ENCRYPTION_KEY="+b64Key(7)), []string{"storage", "rekey"}}} {
			out, errOut, code := run(t, c.env, "", c.args...)
			if code != 0 {
				t.Fatalf("%s %v: exit %d\n%s", lang, c.args, code, errOut)
			}
			all.WriteString(out + errOut)
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}

// TestREPLLinesSpeakPortuguese: the REPL's own lines (/session show's
// header, /rewind list with no checkpoint, /hub, /help's summaries) are
// Portuguese under
// CHATCLI_LANG=pt-BR and as before in English.
func TestREPLLinesSpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"Esta conversa · 0 mensagens · sem sessão vinculada\n",
			"Nenhum checkpoint ainda: um é feito antes de cada requisição ao modelo.\n", "Em nenhuma thread do hub; /hub join NOME entra numa.\n",
			"  /help                          lista os comandos\n"},
		"en": {"This conversation · 0 messages · not bound to a session\n",
			"No checkpoints yet: one is taken before each request to the model.\n", "In no hub thread; /hub join NAME joins one.\n",
			"  /help                          list the commands\n"},
	} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang}, "/session show\n/rewind list\n/hub\n/help\n")
		for _, w := range want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("%s: exit %d, %q missing from:\n%s\n%s", lang, code, w, out, errOut)
			}
		}
	}
}
