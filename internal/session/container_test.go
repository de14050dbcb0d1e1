package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// sealedLongSession has n messages of about 4 KB each.
func sealedLongSession(n int) *Session {
	sess := &Session{TranscriptID: "0a1b"}
	for i := range n {
		sess.History = append(sess.History, message.Message{Role: message.RoleUser,
			Content: fmt.Sprintf("%d %s %s", i, marker, strings.Repeat("lorem ipsum ", 340))})
	}
	return sess
}

// A file of container version 1, as earlier builds wrote it, opens
// everywhere, and its next save writes version 2.
func TestContainerV1OpensAndIsRewrittenAsV2(t *testing.T) {
	s := sealedStore(t, 1)
	k := s.Key()
	sess := sealedLongSession(40)
	sess.Title, sess.Revision = "old build", 3
	body, _ := Encode(sess)
	v1, err := sealContainerV1(k, "old", *headerOf(sess), body)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("old")
	if err := os.WriteFile(p, v1, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load("old")
	if err != nil || len(got.History) != 40 || got.Title != "old build" {
		t.Fatalf("load v1: %v", err)
	}
	if h, err := s.Stat("old"); err != nil || h.Messages != 40 || h.Revision != 3 {
		t.Fatalf("stat v1: %+v %v", h, err)
	}
	if err := s.Save("old", got); err != nil {
		t.Fatal(err)
	}
	if data := readBytes(t, p); data[len(containerMagic)] != 2 {
		t.Fatalf("saved as container version %d", data[len(containerMagic)])
	}
	if again, err := s.Load("old"); err != nil || len(again.History) != 40 || again.Revision != 4 {
		t.Fatalf("load after save: %v", err)
	}

	// Rekeyed and decrypted, a v1 file gives the same session.
	os.WriteFile(p, v1, 0o600)
	nw := reopen(t, s, testKey(t, 2))
	if changed, err := nw.RekeyFile("old", p, k); err != nil || !changed {
		t.Fatalf("rekey v1: %v %v", changed, err)
	}
	if data := readBytes(t, p); data[len(containerMagic)] != 2 {
		t.Fatal("rekeyed into container version 1")
	}
	if changed, err := nw.DecryptFile("old", p); err != nil || !changed {
		t.Fatalf("decrypt: %v %v", changed, err)
	}
	if plain, err := Decode(readBytes(t, p)); err != nil || len(plain.History) != 40 {
		t.Fatalf("decrypted: %v", err)
	}
}

// A container of a later version than this build writes is too new:
// every verb refuses it and it stays byte-identical. (A build that reads
// only version 1 treats version 2 the same way.)
func TestLaterContainerVersionIsNeverOverwritten(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("zoo", markedSession()); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("zoo")
	data := readBytes(t, p)
	data[len(containerMagic)] = containerVersion + 1
	os.WriteFile(p, data, 0o600)
	s = reopen(t, s, s.Key())
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrTooNew) || !strings.Contains(err.Error(), "upgrade chatcli") {
			t.Errorf("%s: %v, want ErrTooNew", what, err)
		}
		if !bytes.Equal(readBytes(t, p), data) {
			t.Fatalf("%s changed the file", what)
		}
	}
	_, err := s.Load("zoo")
	check("load", err)
	_, err = s.Stat("zoo")
	check("stat", err)
	if err := s.Save("zoo", markedSession()); err == nil || !bytes.Equal(readBytes(t, p), data) {
		t.Fatalf("save over it: %v", err) // ErrKeyRefused: the newest sealed file did not open
	}
	_, err = s.RekeyFile("zoo", p, testKey(t, 2))
	check("rekey", err)
	_, err = s.DecryptFile("zoo", p)
	check("decrypt", err)
	check("rename", s.Rename("zoo", "gnu"))
}

// A body cut at or inside a segment, or with bytes after it, fails to
// load, rekey and decrypt, and is never overwritten.
func TestSealedBodyCutOrExtendedIsRefused(t *testing.T) {
	s := sealedStore(t, 1)
	if err := s.Save("zoo", sealedLongSession(50)); err != nil { // about 200 KB: four segments
		t.Fatal(err)
	}
	p, _ := s.Path("zoo")
	good := readBytes(t, p)
	n := int(good[9])<<24 | int(good[10])<<16 | int(good[11])<<8 | int(good[12])
	body := containerPrefix + n + 48 // the first segment
	seg := seal.SegmentSizeBytes + 16
	for _, bad := range [][]byte{
		good[:body+seg], good[:body+2*seg], good[:body+2*seg+100], good[:len(good)-1], good[:body],
		append(bytes.Clone(good), 0), append(bytes.Clone(good), good[body:body+seg]...),
	} {
		os.WriteFile(p, bad, 0o600)
		w := reopen(t, s, s.Key())
		if _, err := w.Load("zoo"); !errors.Is(err, seal.ErrWrongKey) && !errors.Is(err, ErrCorrupt) {
			t.Errorf("%d of %d bytes: load gave %v", len(bad), len(good), err)
		}
		if err := w.Save("zoo", markedSession()); err == nil || !bytes.Equal(readBytes(t, p), bad) {
			t.Fatalf("%d of %d bytes: overwritten (%v)", len(bad), len(good), err)
		}
		nw := reopen(t, s, testKey(t, 2))
		if _, err := nw.RekeyFile("zoo", p, s.Key()); err == nil || !bytes.Equal(readBytes(t, p), bad) {
			t.Fatalf("%d of %d bytes: rekeyed (%v)", len(bad), len(good), err)
		}
		if _, err := w.DecryptFile("zoo", p); err == nil || !bytes.Equal(readBytes(t, p), bad) {
			t.Fatalf("%d of %d bytes: decrypted (%v)", len(bad), len(good), err)
		}
	}
}

// allocBytes is how many bytes fn allocates.
func allocBytes(t *testing.T, fn func() error) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := fn(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Sealed saves, loads, rekeys and decryptions stream: none holds a whole
// copy of the file or of the document beside the session itself.
func TestSealedPathsHoldNoWholeCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an 8 MB session")
	}
	sess := sealedLongSession(2000)
	plain, sealed := newStore(t), sealedStore(t, 1)
	for _, s := range []*Store{plain, sealed} {
		if err := s.Save("big", sess); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := sealed.Path("big")
	st, _ := os.Stat(p)
	size := uint64(st.Size())
	load := func(s *Store) func() error { return func() error { _, err := s.Load("big"); return err } }
	base := allocBytes(t, load(plain))
	if got := allocBytes(t, load(sealed)); got > base+size/4 {
		t.Errorf("sealed load allocates %d bytes, plaintext %d, file %d", got, base, size)
	}
	if got := allocBytes(t, func() error { return sealed.Save("big", sess) }); got > size/4 {
		t.Errorf("sealed save allocates %d bytes for a file of %d", got, size)
	}
	nw := reopen(t, sealed, testKey(t, 2))
	if got := allocBytes(t, func() error { _, err := nw.RekeyFile("big", p, testKey(t, 1)); return err }); got > size/4 {
		t.Errorf("rekey allocates %d bytes for a file of %d", got, size)
	}
	if got := allocBytes(t, func() error { _, err := nw.DecryptFile("big", p); return err }); got > size/4 {
		t.Errorf("decrypt allocates %d bytes for a file of %d", got, size)
	}
}
