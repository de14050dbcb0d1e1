package conversation

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// keyedEngine is an engine with journals on the store in dir, sealed with
// the key of byte b (0: no key).
func keyedEngine(t *testing.T, dir string, b byte) (*Engine, *session.Store) {
	t.Helper()
	st, err := session.Open(filepath.Join(dir, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if b != 0 {
		k, err := seal.ParseKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)))
		if err != nil {
			t.Fatal(err)
		}
		st.SetKey(k)
	}
	f := &fixture{store: st}
	e := f.engine(nil)
	e.setJournalDir(filepath.Join(dir, "transcripts"))
	return e, st
}

// entries lists the files under dir.
func entries(t *testing.T, dir string) string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			r, _ := filepath.Rel(dir, p)
			out = append(out, r)
		}
		return nil
	})
	return strings.Join(out, " ")
}

func TestWrongKeyWritesNothingEvenWhenAsked(t *testing.T) {
	dir := t.TempDir()
	right, _ := keyedEngine(t, dir, 1)
	turn(t, right, "secret")
	if err := right.Save("notes", false); err != nil {
		t.Fatal(err)
	}
	before := entries(t, dir)
	e, _ := keyedEngine(t, dir, 2)
	if _, err := e.Load("notes"); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("load with the wrong key: %v", err)
	}
	turn(t, e, "hi")
	for what, err := range map[string]error{
		"fork":   e.Fork("zz"),
		"save":   e.Save("yy", false),
		"mirror": e.Mirror("mcp-1"),
	} {
		if !errors.Is(err, session.ErrKeyRefused) || !strings.Contains(err.Error(), `did not open session "notes"`) {
			t.Errorf("%s: %v", what, err)
		}
	}
	if _, err := e.Close(true); !errors.Is(err, session.ErrKeyRefused) || !strings.Contains(err.Error(), "not autosaved") {
		t.Errorf("autosave: %v", err)
	}
	if after := entries(t, dir); after != before {
		t.Fatalf("files written under the wrong key:\nbefore %s\nafter  %s", before, after)
	}
}

func TestNoKeyOnAnEncryptedStoreAutosavesNothing(t *testing.T) {
	dir := t.TempDir()
	right, _ := keyedEngine(t, dir, 1)
	turn(t, right, "secret")
	if err := right.Save("notes", false); err != nil {
		t.Fatal(err)
	}
	before := entries(t, dir)
	e, st := keyedEngine(t, dir, 0)
	if _, err := e.Load("notes"); !errors.Is(err, session.ErrEncrypted) {
		t.Fatalf("load without a key: %v", err)
	}
	turn(t, e, "hi more")
	if err := e.Mirror("mcp-1"); !errors.Is(err, session.ErrStoreEncrypted) {
		t.Errorf("mirror: %v", err)
	}
	_, err := e.Close(true)
	if !errors.Is(err, session.ErrStoreEncrypted) ||
		!strings.Contains(err.Error(), "the store is encrypted and CHATCLI_ENCRYPTION_KEY is not set: this conversation was not autosaved") {
		t.Errorf("autosave: %v", err)
	}
	if after := entries(t, dir); after != before {
		t.Fatalf("plaintext written next to sealed sessions:\nbefore %s\nafter  %s", before, after)
	}
	// A person asking for a save gets it, in plaintext.
	if err := e.Save("mine", false); err != nil {
		t.Fatal(err)
	}
	if s, err := st.Load("mine"); err != nil || users(s.History) != "hi more" {
		t.Fatalf("explicit save: %v", err)
	}
}
