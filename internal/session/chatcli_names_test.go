package session

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A session ChatCLI created under a name chatcli's rule refuses goes to
// the trash and comes back by that name; a name neither rule allows, or
// one the trash does not hold, is still refused.
func TestAChatCLINameIsRestoredFromTheTrash(t *testing.T) {
	s := newStore(t)
	doc := []byte(`{"version":2,"chat_history":[{"role":"user","content":"hi"}]}`)
	for _, n := range []string{"con", "a..b", "release-v2."} {
		p := filepath.Join(s.Dir(), n+".json")
		if err := os.WriteFile(p, doc, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Trash(n); err != nil {
			t.Fatalf("trash %s: %v", n, err)
		}
		if err := s.Restore(n); err != nil {
			t.Fatalf("restore %s: %v", n, err)
		}
		if got, err := os.ReadFile(p); err != nil || string(got) != string(doc) {
			t.Fatalf("%s restored as %q (%v)", n, got, err)
		}
	}
	for _, n := range []string{"nul.txt", "../con"} {
		if err := s.Restore(n); !errors.Is(err, ErrInvalidName) {
			t.Errorf("restore %q: %v", n, err)
		}
	}
}
