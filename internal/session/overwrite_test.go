package session

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// Whatever Load refuses, a save refuses to replace, and leaves as it was:
// wrong types and bad escapes inside well-nested JSON included.
func TestSaveRefusesEveryFileLoadRefuses(t *testing.T) {
	for name, doc := range map[string]string{
		"wrong-type": `{"version":2,"chat_history":[{"role":"user","content":5}]}`,
		"bad-escape": `{"version":2,"chat_history":[{"role":"user","content":"a\x"}]}`,
		"bad-title":  `{"version":2,"title":7,"chat_history":[]}`,
		"bad-extra":  `{"version":2,"chat_history":[],"future":[1,}`,
	} {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			p, _ := st.Path("x")
			if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Load("x"); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Load = %v, want ErrCorrupt", err)
			}
			err := st.Save("x", &Session{History: []message.Message{{Role: message.RoleUser, Content: "new"}}})
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Save over it = %v, want ErrCorrupt", err)
			}
			if got, _ := os.ReadFile(p); string(got) != doc {
				t.Fatalf("the file was replaced: %q", got)
			}
		})
	}
}

// The file this store last wrote is not read again before it is replaced;
// one another program wrote is.
func TestOwnFileIsNotCheckedAgain(t *testing.T) {
	st := newStore(t)
	var checked int
	onFullCheck = func(string) { checked++ }
	t.Cleanup(func() { onFullCheck = func(string) {} })
	sess := sample()
	for range 3 {
		if err := st.Save("x", sess); err != nil {
			t.Fatal(err)
		}
	}
	if checked != 0 {
		t.Fatalf("%d full checks of the store's own file, want 0", checked)
	}
	p, _ := st.Path("x")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, data, 0o600); err != nil { // same bytes, another write
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if err := st.Save("x", sess); err != nil {
		t.Fatal(err)
	}
	if checked != 1 {
		t.Fatalf("%d full checks after another program wrote the file, want 1", checked)
	}
}
