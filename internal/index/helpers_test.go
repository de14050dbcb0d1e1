package index_test

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// store is a CHATCLI_HOME for one test: its session store and journals,
// written through the conversation engine.
type store struct {
	t        *testing.T
	home     string
	st       *session.Store
	journals string
}

func newStore(t *testing.T, key string) *store {
	t.Helper()
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		k, err := seal.ParseKey(key)
		if err != nil {
			t.Fatal(err)
		}
		st.SetKey(k)
	}
	return &store{t: t, home: home, st: st, journals: filepath.Join(home, "transcripts")}
}

// testKey is a fixed encryption key.
var testKey = base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))

func (s *store) engine() *conversation.Engine {
	return conversation.New(conversation.Options{Store: s.st, Provider: offline.New(""), JournalDir: s.journals})
}

// session saves a new session name holding one turn per prompt.
func (s *store) session(name string, prompts ...string) *conversation.Engine {
	s.t.Helper()
	e := s.engine()
	for i, p := range prompts {
		if _, err := e.Turn(context.Background(), p, nil); err != nil {
			s.t.Fatal(err)
		}
		if i == 0 {
			if err := e.Save(name, false); err != nil {
				s.t.Fatal(err)
			}
		}
	}
	return e
}

// turn adds one turn to the session e is bound to.
func (s *store) turn(e *conversation.Engine, prompt string) {
	s.t.Helper()
	if _, err := e.Turn(context.Background(), prompt, nil); err != nil {
		s.t.Fatal(err)
	}
}

func (s *store) index() *index.Index {
	ix := index.Open(index.Options{Store: s.st, JournalDir: s.journals})
	s.t.Cleanup(func() { ix.Close() })
	return ix
}

// find runs query on ix, failing the test on an error.
func (s *store) find(ix *index.Index, query string, f index.Filter) ([]index.Hit, []string) {
	s.t.Helper()
	hits, warnings, err := ix.Find(query, f, 0)
	if err != nil {
		s.t.Fatalf("Find(%q): %v", query, err)
	}
	return hits, english(warnings)
}

// english is the English text of each of warnings.
func english(warnings []i18n.Text) []string {
	out := make([]string, len(warnings))
	for i, w := range warnings {
		out[i] = w.String()
	}
	return out
}

// where lists hits as "session#position" strings.
func where(hits []index.Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Session+"#"+strconv.Itoa(h.Position))
	}
	return out
}

// removeIndex deletes s's index folder.
func removeIndex(s *store) error { return os.RemoveAll(index.Dir(s.st)) }
