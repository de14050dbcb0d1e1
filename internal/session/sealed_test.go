package session

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

const marker = "zebrafinch" // a word that must never be on disk in plaintext

// wrongKeyHint is what a wrong-key error tells the person to do.
const wrongKeyHint = "it was not changed (it opens only with the key that sealed it)"

// testKey returns the key whose 32 bytes all equal b.
func testKey(t testing.TB, b byte) seal.Key {
	t.Helper()
	k, err := seal.ParseKey(base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func sealedStore(t *testing.T, b byte) *Store {
	t.Helper()
	s := newStore(t)
	s.SetKey(testKey(t, b))
	return s
}

func markedSession() *Session {
	return &Session{TranscriptID: "0a1b", History: []message.Message{
		{Role: message.RoleUser, Content: "tell me about the " + marker},
		{Role: message.RoleAssistant, Content: "the " + marker + " sings"},
	}}
}

// reopen returns a second store on s's folder with key k (zero: none).
func reopen(t *testing.T, s *Store, k seal.Key) *Store {
	t.Helper()
	o, err := Open(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	o.SetKey(k)
	return o
}

func readBytes(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealedRoundTrip(t *testing.T) {
	s := sealedStore(t, 1)
	sess := markedSession()
	if err := s.Save("zoo", sess); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("zoo")
	data := readBytes(t, p)
	if !IsSealedFile(data) || bytes.Contains(data, []byte(marker)) {
		t.Fatalf("not sealed: %q", data[:20])
	}
	got, err := s.Load("zoo")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != sess.Title || len(got.History) != 2 || got.History[1].Content != "the "+marker+" sings" || got.Revision != 1 {
		t.Fatalf("round trip: %+v", got)
	}
	h, err := s.Stat("zoo")
	if err != nil || h.Title != sess.Title || h.Messages != 2 || h.Revision != 1 || h.TranscriptID != "0a1b" || !h.UpdatedAt.Equal(sess.UpdatedAt) {
		t.Fatalf("stat: %+v, %v", h, err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Title != sess.Title || list[0].Err != nil {
		t.Fatalf("list: %+v, %v", list, err)
	}
	// A second save keeps it sealed and loadable; no plaintext anywhere.
	got.History = append(got.History, message.Message{Role: message.RoleUser, Content: "more " + marker})
	if err := s.Save("zoo", got); err != nil {
		t.Fatal(err)
	}
	if h, _ := s.Stat("zoo"); h.Revision != 2 || h.Messages != 3 {
		t.Fatalf("after resave: %+v", h)
	}
	assertNoMarker(t, filepath.Dir(s.Dir()))
}

// assertNoMarker fails when any file under root holds marker.
func assertNoMarker(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && bytes.Contains(readBytes(t, p), []byte(marker)) {
			t.Errorf("%s holds %q in plaintext", p, marker)
		}
		return nil
	})
}

// TestSealedFlippedBit flips every bit position class (each byte, one bit)
// of a sealed file: every load fails as wrong key, corrupt or too new, a
// save over it is refused, and the file stays as damaged, byte for byte.
func TestSealedFlippedBit(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("zoo", markedSession()); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("zoo")
	orig := readBytes(t, p)
	for i := range orig {
		bad := bytes.Clone(orig)
		bad[i] ^= 1 << (i % 8)
		if err := os.WriteFile(p, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load("zoo")
		if !errors.Is(err, seal.ErrWrongKey) && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooNew) {
			t.Fatalf("byte %d: load gave %v", i, err)
		}
		if _, err := s.Stat("zoo"); err == nil && i < containerPrefix+100 {
			t.Fatalf("byte %d in the header: stat succeeded", i)
		}
		if err := s.Save("zoo", markedSession()); err == nil {
			t.Fatalf("byte %d: save over a damaged file succeeded", i)
		}
		if !bytes.Equal(readBytes(t, p), bad) {
			t.Fatalf("byte %d: the damaged file changed", i)
		}
	}
}

func TestSealedSwapped(t *testing.T) {
	s := sealedStore(t, 1)
	for _, n := range []string{"a", "b"} {
		if err := s.Save(n, markedSession()); err != nil {
			t.Fatal(err)
		}
	}
	pa, _ := s.Path("a")
	pb, _ := s.Path("b")
	a := readBytes(t, pa)
	if err := os.WriteFile(pb, a, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("b"); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("a's file under b: %v", err)
	}
	// The header of one save with the body of another (same name) fails.
	// (A process whose key failed to open a file writes nothing sealed: a
	// fresh store handle for this part.)
	s = reopen(t, s, testKey(t, 1))
	sess, _ := s.Load("a")
	if err := s.Save("a", sess); err != nil {
		t.Fatal(err)
	}
	a2 := readBytes(t, pa)
	n1 := int(uint32(a[9])<<24 | uint32(a[10])<<16 | uint32(a[11])<<8 | uint32(a[12]))
	n2 := int(uint32(a2[9])<<24 | uint32(a2[10])<<16 | uint32(a2[11])<<8 | uint32(a2[12]))
	mixed := append(bytes.Clone(a2[:containerPrefix+n2]), a[containerPrefix+n1:]...)
	if err := os.WriteFile(pa, mixed, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("a"); !errors.Is(err, seal.ErrWrongKey) && !errors.Is(err, ErrCorrupt) {
		t.Fatalf("mixed header and body: %v", err)
	}
}

// TestSealedWrongKey: with the wrong key every verb fails with the
// wrong-key error and the file stays byte-identical.
func TestSealedWrongKey(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("zoo", markedSession()); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("zoo")
	orig := readBytes(t, p)
	w := reopen(t, s, testKey(t, 2))
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, seal.ErrWrongKey) || !strings.Contains(err.Error(), `session "zoo": wrong encryption key or damaged file`) ||
			!strings.Contains(err.Error(), wrongKeyHint) {
			t.Errorf("%s: %v", what, err)
		}
		if !bytes.Equal(readBytes(t, p), orig) {
			t.Fatalf("%s changed the file", what)
		}
	}
	_, err := w.Load("zoo")
	check("load", err)
	// A save is refused before it reads the file: the key failed once (and
	// opens none of the store's files).
	checkRefused(t, "save", w.Save("zoo", markedSession()), "zoo")
	checkRefused(t, "save", reopen(t, s, testKey(t, 2)).Save("zoo", markedSession()), "zoo")
	if !bytes.Equal(readBytes(t, p), orig) {
		t.Fatal("a refused save changed the file")
	}
	_, err = w.Stat("zoo")
	check("stat", err)
	list, err := w.List()
	if err != nil || len(list) != 1 {
		t.Fatal(list, err)
	}
	check("list", list[0].Err)
	check("rename", w.Rename("zoo", "zoo2"))
	_, err = w.Fork("zoo", "zoo3")
	check("fork", err)
	if _, err := s.Load("zoo"); err != nil {
		t.Fatalf("the right key: %v", err)
	}
}

func TestSealedNoKey(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("zoo", markedSession()); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("zoo")
	orig := readBytes(t, p)
	n := reopen(t, s, seal.Key{})
	const want = `session "zoo" is encrypted; set CHATCLI_ENCRYPTION_KEY`
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrEncrypted) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", what, err)
		}
		if !bytes.Equal(readBytes(t, p), orig) {
			t.Fatalf("%s changed the file", what)
		}
	}
	_, err := n.Load("zoo")
	check("load", err)
	check("save", n.Save("zoo", &Session{History: []message.Message{{Role: message.RoleUser, Content: "x"}}}))
	_, err = n.Stat("zoo")
	check("stat", err)
	list, _ := n.List()
	check("list", list[0].Err)
	check("rename", n.Rename("zoo", "zoo2"))
	if _, err := os.Stat(n.listIndexPath()); err == nil && bytes.Contains(readBytes(t, n.listIndexPath()), []byte(marker)) {
		t.Fatal("list index holds the title")
	}
}

func TestSealedMigration(t *testing.T) {
	s := newStore(t)
	if err := s.Save("old", markedSession()); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("old")
	if IsSealedFile(readBytes(t, p)) {
		t.Fatal("sealed without a key")
	}
	k := reopen(t, s, testKey(t, 1))
	sess, err := k.Load("old")
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Save("old", sess); err != nil {
		t.Fatal(err)
	}
	if !IsSealedFile(readBytes(t, p)) {
		t.Fatal("not sealed at its next save")
	}
	if got, err := k.Load("old"); err != nil || len(got.History) != 2 || got.Revision != 2 {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestSealedRenameForkTrash(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("a", markedSession()); err != nil {
		t.Fatal(err)
	}
	if err := s.Rename("a", "b"); err != nil {
		t.Fatal(err)
	}
	if s.Exists("a") {
		t.Fatal("old name still there")
	}
	if got, err := s.Load("b"); err != nil || len(got.History) != 2 {
		t.Fatalf("renamed: %v", err)
	}
	if _, err := s.Fork("b", "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("c"); err != nil {
		t.Fatal(err)
	}
	e, err := s.Trash("c")
	if err != nil {
		t.Fatal(err)
	}
	if list, err := s.TrashList(); err != nil || len(list) != 1 || list[0].TranscriptID != "" || list[0].Err != nil {
		t.Fatalf("%+v %v", list, err)
	}
	_ = e
	if err := s.Restore("c"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("c"); err != nil {
		t.Fatal(err)
	}
	assertNoMarker(t, filepath.Dir(s.Dir()))
}

func TestRekeyFile(t *testing.T) {
	old, nw := testKey(t, 1), testKey(t, 2)
	plain := newStore(t)
	if err := plain.Save("p", markedSession()); err != nil {
		t.Fatal(err)
	}
	so := reopen(t, plain, old)
	if err := so.Save("s", markedSession()); err != nil {
		t.Fatal(err)
	}
	sn := reopen(t, plain, nw)
	for _, n := range []string{"p", "s"} {
		p, _ := sn.Path(n)
		changed, err := sn.RekeyFile(n, p, old)
		if err != nil || !changed {
			t.Fatalf("%s: %v %v", n, changed, err)
		}
		if changed, err := sn.RekeyFile(n, p, old); err != nil || changed {
			t.Fatalf("%s again: %v %v", n, changed, err)
		}
		if got, err := sn.Load(n); err != nil || len(got.History) != 2 {
			t.Fatalf("%s: %v", n, err)
		}
		if _, err := so.Load(n); !errors.Is(err, seal.ErrWrongKey) {
			t.Fatalf("%s opens with the old key: %v", n, err)
		}
	}
	// Neither key opens it: an error and the file untouched.
	third := reopen(t, plain, testKey(t, 3))
	p, _ := third.Path("s")
	before := readBytes(t, p)
	if _, err := third.RekeyFile("s", p, old); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatal(err)
	}
	if !bytes.Equal(before, readBytes(t, p)) {
		t.Fatal("changed")
	}
	assertNoMarker(t, filepath.Dir(plain.Dir()))
}

// FuzzOpenContainer: arbitrary bytes as a sealed session file never panic,
// give a classified error, never open to anything but the seed's body, and
// never open under another key.
func FuzzOpenContainer(f *testing.F) {
	k := testKey(f, 1)
	sess := markedSession()
	body, _ := Encode(sess)
	good, err := sealContainer(k, "zoo", *headerOf(sess), body)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	v1, err := sealContainerV1(k, "zoo", *headerOf(sess), body)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v1)
	f.Add(v1[:len(v1)-1])
	f.Add([]byte(containerMagic))
	f.Add([]byte(containerMagic + "\x01\x00\x00\x00\x45"))
	f.Add(good[:len(good)-1])
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		_, pt, err := openContainer(k, "zoo", data)
		// Only containers sealed from body under k open (the seed, made
		// again with fresh salts by every fuzz worker).
		if err == nil && !bytes.Equal(pt, body) {
			t.Fatalf("forged container opened to %q", pt)
		}
		if err != nil && !errors.Is(err, seal.ErrWrongKey) && !errors.Is(err, seal.ErrCorrupt) &&
			!errors.Is(err, seal.ErrTooNew) && !errors.Is(err, seal.ErrNotSealed) {
			t.Fatalf("unclassified: %v", err)
		}
		if _, _, err := openContainer(testKey(t, 2), "zoo", data); err == nil {
			t.Fatal("opened under another key")
		}
		if !bytes.Equal(data, orig) {
			t.Fatal("input modified")
		}
	})
}

// A rename leaves no lock file under the old name, sealed or not: a lock
// file of a session that no longer exists is litter in `chatcli storage`.
func TestRenameRemovesOldLockFile(t *testing.T) {
	for name, s := range map[string]*Store{"plain": newStore(t), "sealed": sealedStore(t, 1)} {
		if err := s.Save("a", markedSession()); err != nil {
			t.Fatal(err)
		}
		if err := s.Rename("a", "b"); err != nil {
			t.Fatal(err)
		}
		lp, _ := s.LockPath("a")
		if _, err := os.Stat(lp); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: lock file of the old name still there after rename (%v)", name, err)
		}
	}
}
