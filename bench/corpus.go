package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// SearchName is the name of the i-th session of a SearchStore.
func SearchName(i int) string { return fmt.Sprintf("search-%04d", i) }

// SearchPhrase is a phrase every SearchStore session holds in some of its
// prompts, SearchRareWord a word only session 7 holds, SearchThaiWord a
// Thai word inside sentences of every tenth session.
const (
	SearchPhrase   = "deploy freeze"
	SearchRareWord = "quokkafjord"
	SearchThaiWord = "ฐานข้อมูล"
)

// vocabularyWords is the number of distinct words of SearchStore's text,
// drawn with a Zipf distribution (s = 1.1), as words of natural text are.
const vocabularyWords = 50000

// SearchWord returns the word of SearchStore's vocabulary drawn with
// rank (0 the most frequent), for queries of known frequency.
func SearchWord(rank int) string { return vocabulary()[rank] }

// vocabulary returns vocabularyWords distinct pronounceable words, the
// same on every call.
func vocabulary() []string {
	syllables := strings.Fields("ka lo mi ne ru sa to vi de gu pa ze fo hi ju ba ce dy el om ur an is ex")
	words := make([]string, 0, vocabularyWords)
	seen := map[string]bool{}
	r := rand.New(rand.NewPCG(1, 2))
	for len(words) < vocabularyWords {
		var b strings.Builder
		for range 1 + r.IntN(4) {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

// SearchStore builds under home ($CHATCLI_HOME's layout) n sessions of
// about sessionBytes bytes each, every one a distinct conversation grown
// turn by turn by chatcli's conversation engine (offline provider, journal
// on) from prompts of promptBytes bytes of Zipf-distributed words; the
// same arguments always give the same text. Some prompts hold
// SearchPhrase, session 7 holds SearchRareWord, every tenth session
// SearchThaiWord in Thai sentences. progress, when set, hears each
// session built. It returns the bytes of prompts written.
func SearchStore(home string, n, sessionBytes, promptBytes int, progress func(done int)) (int64, error) {
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		return 0, err
	}
	words := vocabulary()
	var total int64
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(i), 42))
		zipf := rand.NewZipf(rand.New(rand.NewPCG(uint64(i), 43)), 1.1, 1, vocabularyWords-1)
		e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""),
			JournalDir: filepath.Join(home, "transcripts"), ContextWindow: 1 << 40})
		for t, size := 0, 0; size < sessionBytes; t++ {
			var b strings.Builder
			fmt.Fprintf(&b, "turn %d of %s: ", t, SearchName(i))
			for b.Len() < promptBytes {
				switch k := r.IntN(2000); {
				case k == 0:
					b.WriteString(SearchPhrase)
				case k == 1 && i == 7:
					b.WriteString(SearchRareWord)
				case k == 2 && i%10 == 0:
					b.WriteString("ระบบ" + SearchThaiWord + "ของเราทำงานช้า")
				default:
					b.WriteString(words[zipf.Uint64()])
				}
				if r.IntN(12) == 0 {
					b.WriteString(". ")
				} else {
					b.WriteByte(' ')
				}
			}
			if _, err := e.Turn(context.Background(), b.String(), nil); err != nil {
				return total, fmt.Errorf("bench: session %d turn %d: %w", i, t, err)
			}
			if t == 0 {
				if err := e.Save(SearchName(i), false); err != nil {
					return total, err
				}
			}
			size += b.Len()
			total += int64(b.Len())
		}
		if _, err := e.Close(false); err != nil {
			return total, err
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return total, nil
}
