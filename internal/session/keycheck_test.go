package session

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

const refusedHint = "nothing is written under it — restart with the right CHATCLI_ENCRYPTION_KEY"

// checkRefused checks err is the key refusal naming session name.
func checkRefused(t *testing.T, what string, err error, name string) {
	t.Helper()
	if !errors.Is(err, ErrKeyRefused) || !strings.Contains(err.Error(), `did not open session "`+name+`"`) ||
		!strings.Contains(err.Error(), refusedHint) {
		t.Errorf("%s: %v", what, err)
	}
}

// Once the key failed to open a file, the store writes nothing sealed with
// it, whoever asks: saves, creates, forks, updates of any session.
func TestRefusedKeySealsNothing(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("notes", markedSession()); err != nil {
		t.Fatal(err)
	}
	w := reopen(t, s, testKey(t, 2))
	if _, err := w.Load("notes"); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("load with the wrong key: %v", err)
	}
	checkRefused(t, "save", w.Save("zz", markedSession()), "notes")
	checkRefused(t, "create", w.Create("zz", markedSession()), "notes")
	checkRefused(t, "saveif", w.SaveIf("zz", markedSession(), 0), "notes")
	_, err := w.CreateUnique("autosave-x", markedSession())
	checkRefused(t, "create unique", err, "notes")
	if w.Exists("zz") || !w.KeyRefused() || w.AutoWriteRefusal() == nil {
		t.Fatalf("exists %v, refused %v", w.Exists("zz"), w.KeyRefused())
	}
}

// A key that never met a file of the store is checked before its first
// sealed write: it must open the header of one of the newest sealed
// sessions, else nothing is sealed with it (no store of mixed keys).
func TestUnmetWrongKeyIsCheckedBeforeTheFirstWrite(t *testing.T) {
	s := sealedStore(t, 1)
	for _, n := range []string{"old", "notes"} {
		if err := s.Save(n, markedSession()); err != nil {
			t.Fatal(err)
		}
	}
	w := reopen(t, s, testKey(t, 2))
	err := w.Save("brandnew", markedSession())
	if !errors.Is(err, ErrKeyRefused) || !strings.Contains(err.Error(), refusedHint) {
		t.Fatalf("first write with another key: %v", err)
	}
	if w.Exists("brandnew") || !w.KeyRefused() {
		t.Fatal("a file was sealed under a key that opens none of the store's")
	}
	// The right key, and a key on a plaintext or empty store, write.
	for what, o := range map[string]*Store{"right key": reopen(t, s, testKey(t, 1)), "empty store": sealedStore(t, 2)} {
		if err := o.Save("brandnew", markedSession()); err != nil || o.KeyRefused() {
			t.Errorf("%s: %v", what, err)
		}
	}
	plain := newStore(t)
	if err := plain.Save("p", markedSession()); err != nil {
		t.Fatal(err)
	}
	if err := reopen(t, plain, testKey(t, 2)).Save("q", markedSession()); err != nil {
		t.Errorf("a key on a plaintext store: %v", err)
	}
}

// Without a key, a store holding sealed sessions (or one whose load was
// refused as encrypted) refuses writes nobody asked for; an explicit save
// stays allowed, in plaintext.
func TestNoKeyOnAnEncryptedStore(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("notes", markedSession()); err != nil {
		t.Fatal(err)
	}
	n := reopen(t, s, seal.Key{})
	if err := n.AutoWriteRefusal(); !errors.Is(err, ErrStoreEncrypted) {
		t.Fatalf("no key on a sealed store: %v", err)
	}
	if err := n.Save("plain", markedSession()); err != nil {
		t.Fatalf("an explicit save without a key: %v", err)
	}
	p, _ := n.Path("plain")
	if data, _ := os.ReadFile(p); IsSealedFile(data) {
		t.Fatal("sealed without a key")
	}
	// The sealed file is no longer among the newest: the failed load tells.
	for _, name := range []string{"p1", "p2", "p3", "p4", "p5"} {
		if err := n.Save(name, markedSession()); err != nil {
			t.Fatal(err)
		}
	}
	late := reopen(t, s, seal.Key{})
	if err := late.AutoWriteRefusal(); err != nil {
		t.Fatalf("only plaintext among the newest files: %v", err)
	}
	if _, err := late.Load("notes"); !errors.Is(err, ErrEncrypted) {
		t.Fatal(err)
	}
	if err := late.AutoWriteRefusal(); !errors.Is(err, ErrStoreEncrypted) {
		t.Fatalf("after an encrypted load: %v", err)
	}
	if err := newStore(t).AutoWriteRefusal(); err != nil {
		t.Fatalf("a plaintext store: %v", err)
	}
}
