package editor

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

func historyKey(t *testing.T, b64 string) seal.Key {
	t.Helper()
	k, err := seal.ParseKey(b64)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

const (
	keyA = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="
	keyB = "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA="
)

func TestSealedHistoryHoldsNoPlaintextAndReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	codec := lineCodec{key: historyKey(t, keyA)}
	h, err := loadHistory(path, 3, codec)
	if err != nil {
		t.Fatal(err)
	}
	entries := []string{"secret one", "two\nlines", `\back`, "chatcli-sealed:v1:looks sealed", "five"}
	mustAdd(t, h, entries...)
	data := readFile(t, path)
	for _, e := range []string{"secret", "lines", "back", "five", "looks"} {
		if strings.Contains(data, e) {
			t.Fatalf("the sealed history holds %q in plaintext:\n%s", e, data)
		}
	}
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines on disk, want the newest 3", len(lines))
	}
	for _, l := range lines {
		if !seal.IsSealedLine([]byte(l)) {
			t.Fatalf("line %q is not sealed", l)
		}
	}
	again, err := loadHistory(path, 10, codec)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.snapshot(); !slices.Equal(got, entries[2:]) {
		t.Fatalf("read back %q, want %q", got, entries[2:])
	}
	// Plaintext, the entry that looks like a sealed line stays an entry.
	plain, err := loadHistory(path, 10, lineCodec{key: codec.key, plaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.snapshot(); !slices.Equal(got, entries[2:]) {
		t.Fatalf("read back in plaintext %q", got)
	}
	if data := readFile(t, path); !strings.Contains(data, "five") || strings.Contains(data, "\nchatcli-sealed:") {
		t.Fatalf("CHATCLI_HISTORY_PLAINTEXT did not rewrite the file in plaintext:\n%s", data)
	}
	if got, _, _ := readHistoryFile(path, lineCodec{}); !slices.Equal(got, entries[2:]) {
		t.Fatalf("the plaintext file read without a key: %q", got)
	}
}

func TestPlaintextHistoryIsSealedWhenAKeyIsSet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, []byte("typed before the key\nsecond\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := loadHistory(path, 10, lineCodec{key: historyKey(t, keyA)})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.snapshot(); !slices.Equal(got, []string{"typed before the key", "second"}) {
		t.Fatalf("entries %q", got)
	}
	if data := readFile(t, path); strings.Contains(data, "typed") || strings.Contains(data, "second") {
		t.Fatalf("a plaintext history was kept in plaintext with a key set:\n%s", data)
	}
}

func TestSealedHistoryWithoutOrWithWrongKeyIsLeftAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h, err := loadHistory(path, 10, lineCodec{key: historyKey(t, keyA)})
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, h, "one", "two")
	before := []byte(readFile(t, path))
	if _, err := New(Config{HistoryFile: path}); !errors.Is(err, ErrSealedHistory) || errors.Is(err, ErrCorruptHistory) {
		t.Fatalf("no key: %v, want ErrSealedHistory (not ErrCorruptHistory: the file is not moved aside)", err)
	}
	_, err = New(Config{HistoryFile: path, HistoryKey: historyKey(t, keyB)})
	if !errors.Is(err, seal.ErrWrongKey) || !strings.Contains(err.Error(), path) || errors.Is(err, ErrCorruptHistory) {
		t.Fatalf("wrong key: %v, want seal.ErrWrongKey naming %s", err, path)
	}
	if !bytes.Equal(before, []byte(readFile(t, path))) {
		t.Fatal("the sealed history changed")
	}
}

func TestRekeyHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if changed, err := RekeyHistory(path, seal.Key{}, historyKey(t, keyA)); err != nil || changed {
		t.Fatalf("missing file: %v %v", changed, err)
	}
	os.WriteFile(path, []byte("plain one\n"), 0o600)
	a, b := historyKey(t, keyA), historyKey(t, keyB)
	if changed, err := RekeyHistory(path, seal.Key{}, a); err != nil || !changed {
		t.Fatalf("plaintext to a: %v %v", changed, err)
	}
	if changed, err := RekeyHistory(path, a, b); err != nil || !changed {
		t.Fatalf("a to b: %v %v", changed, err)
	}
	if changed, err := RekeyHistory(path, a, b); err != nil || changed {
		t.Fatalf("again: %v %v", changed, err)
	}
	before := readFile(t, path)
	if _, err := RekeyHistory(path, a, a); !errors.Is(err, seal.ErrWrongKey) || readFile(t, path) != before {
		t.Fatalf("keys that do not open it: %v", err)
	}
	got, _, err := readHistoryFile(path, lineCodec{key: b})
	if err != nil || !slices.Equal(got, []string{"plain one"}) {
		t.Fatalf("under b: %q %v", got, err)
	}
}

func TestDecryptHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	a, b := historyKey(t, keyA), historyKey(t, keyB)
	if changed, err := DecryptHistory(path, a); err != nil || changed {
		t.Fatalf("missing file: %v %v", changed, err)
	}
	os.WriteFile(path, []byte("plain one\nmulti\\nline\n"), 0o600)
	if _, err := RekeyHistory(path, seal.Key{}, a); err != nil {
		t.Fatal(err)
	}
	sealed := readFile(t, path)
	if _, err := DecryptHistory(path, b); !errors.Is(err, seal.ErrWrongKey) || readFile(t, path) != sealed {
		t.Fatalf("another key: %v", err)
	}
	if changed, err := DecryptHistory(path, a); err != nil || !changed {
		t.Fatalf("decrypt: %v %v", changed, err)
	}
	if got := readFile(t, path); got != "plain one\nmulti\\nline\n" {
		t.Fatalf("plaintext: %q", got)
	}
	if changed, err := DecryptHistory(path, a); err != nil || changed {
		t.Fatalf("again: %v %v", changed, err)
	}
	if _, err := New(Config{HistoryFile: path}); err != nil {
		t.Fatalf("without a key: %v", err)
	}
}
