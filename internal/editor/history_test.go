package editor

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

func mustLoad(t *testing.T, path string, maxEntries int) *history {
	t.Helper()
	h, err := loadHistory(path, maxEntries, lineCodec{})
	if err != nil {
		t.Fatalf("loadHistory: %v", err)
	}
	return h
}

func mustAdd(t *testing.T, h *history, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := h.add(l); err != nil {
			t.Fatalf("add %q: %v", l, err)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHistoryMissingFileIsEmpty(t *testing.T) {
	h := mustLoad(t, filepath.Join(t.TempDir(), "nope", "history"), 0)
	if len(h.snapshot()) != 0 || h.maxEntries != defaultHistoryMax {
		t.Fatalf("entries %q max %d", h.snapshot(), h.maxEntries)
	}
}

func TestHistoryPersistsAndReloads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "home")
	path := filepath.Join(dir, "history")
	h := mustLoad(t, path, 10)
	mustAdd(t, h, "one", "two")
	if got := readFile(t, path); got != "one\ntwo\n" {
		t.Fatalf("file %q", got)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
	again := mustLoad(t, path, 10)
	if got := again.snapshot(); !slices.Equal(got, []string{"one", "two"}) {
		t.Fatalf("reloaded %q", got)
	}
}

func TestHistorySkipsBlankAndImmediateDuplicates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h := mustLoad(t, path, 10)
	mustAdd(t, h, "a", "", "   ", "a", "b", "a", "a")
	want := []string{"a", "b", "a"}
	if got := h.snapshot(); !slices.Equal(got, want) {
		t.Fatalf("entries %q, want %q", got, want)
	}
	if got := readFile(t, path); got != "a\nb\na\n" {
		t.Fatalf("file %q", got)
	}
}

func TestHistoryTrimsToMax(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h := mustLoad(t, path, 3)
	mustAdd(t, h, "1", "2", "3")
	if got := readFile(t, path); got != "1\n2\n3\n" {
		t.Fatalf("file before growing past max: %q", got)
	}
	mustAdd(t, h, "4", "5")
	if got := readFile(t, path); got != "3\n4\n5\n" {
		t.Fatalf("file after trimming: %q", got)
	}
	if got := h.snapshot(); !slices.Equal(got, []string{"3", "4", "5"}) {
		t.Fatalf("entries %q", got)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("rewritten file mode %v", st.Mode().Perm())
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".history.tmp-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temp files left: %q", leftovers)
	}
}

func TestHistoryLoadKeepsNewestMax(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, []byte("1\n2\n3\n4\n5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := mustLoad(t, path, 2)
	if got := h.snapshot(); !slices.Equal(got, []string{"4", "5"}) {
		t.Fatalf("entries %q", got)
	}
	// The oversized file is trimmed on the next add.
	mustAdd(t, h, "6")
	if got := readFile(t, path); got != "5\n6\n" {
		t.Fatalf("file %q", got)
	}
}

func TestHistoryTrimKeepsOtherWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	a := mustLoad(t, path, 3)
	b := mustLoad(t, path, 3)
	mustAdd(t, a, "a1", "a2")
	mustAdd(t, b, "b1", "b2") // the file now holds 4 entries
	mustAdd(t, a, "a3")
	if got := readFile(t, path); got != "b1\nb2\na3\n" {
		t.Fatalf("file %q", got)
	}
}

func TestHistoryRoundTrip(t *testing.T) {
	entries := []string{
		"documentação-site",
		"refatoração 🎉 emoji 👍🏽",
		"first line\nsecond line",
		"windows\r\nline",
		`C:\temp\new`,
		`\starts with a backslash`,
		`\`,
		`ends with \`,
		"\\n literal then\nreal newline",
		"tab\tinside",
	}
	path := filepath.Join(t.TempDir(), "history")
	h := mustLoad(t, path, 100)
	mustAdd(t, h, entries...)
	if got := mustLoad(t, path, 100).snapshot(); !slices.Equal(got, entries) {
		t.Fatalf("round trip:\n got %q\nwant %q", got, entries)
	}
	if n := strings.Count(readFile(t, path), "\n"); n != len(entries) {
		t.Fatalf("%d lines for %d entries", n, len(entries))
	}
}

func TestEncodeEntry(t *testing.T) {
	for entry, line := range map[string]string{
		"/session save notas": "/session save notas",
		"first\nsecond":       `\first\nsecond`,
		`C:\temp`:             `C:\temp`,
		`\d+ digits`:          `\\\d+ digits`,
		"a\rb":                `\a\rb`,
	} {
		if got := encodeEntry(entry); got != line {
			t.Errorf("encodeEntry(%q) = %q, want %q", entry, got, line)
		}
		if got := decodeEntry(line); got != entry {
			t.Errorf("decodeEntry(%q) = %q, want %q", line, got, entry)
		}
	}
	// Unknown escapes and a trailing backslash are kept as written.
	if got := decodeEntry(`\a\tb\`); got != `a\tb\` {
		t.Errorf("decodeEntry kept %q", got)
	}
}

func TestHistoryReadsForeignFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	// CRLF endings, blank lines, no final newline.
	if err := os.WriteFile(path, []byte("one\r\n\r\n\ntwo\r\nthree"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := mustLoad(t, path, 10)
	if got := h.snapshot(); !slices.Equal(got, []string{"one", "two", "three"}) {
		t.Fatalf("entries %q", got)
	}
	mustAdd(t, h, "four")
	if got := mustLoad(t, path, 10).snapshot(); !slices.Equal(got, []string{"one", "two", "three", "four"}) {
		t.Fatalf("after appending to a file without a final newline: %q", got)
	}
}

func TestHistoryCorruptFileNamed(t *testing.T) {
	for name, data := range map[string][]byte{
		"nul":         []byte("ok\nbad\x00line\n"),
		"invalid utf": []byte("ok\n\xff\xfe\n"),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := loadHistory(path, 10, lineCodec{})
			if !errors.Is(err, ErrCorruptHistory) {
				t.Fatalf("err %v, want ErrCorruptHistory", err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 2") {
				t.Fatalf("error %q does not name the file and line", err)
			}
		})
	}
}

func TestHistoryUnreadableFileNamed(t *testing.T) {
	// A directory where the file should be cannot be read as one, even as root.
	path := filepath.Join(t.TempDir(), "history")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := loadHistory(path, 10, lineCodec{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err %v, want one naming %s", err, path)
	}
	if errors.Is(err, ErrCorruptHistory) {
		t.Fatalf("unreadable reported as corrupt: %v", err)
	}
}

func TestHistoryRewriteFailureLeavesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h := mustLoad(t, path, 2)
	mustAdd(t, h, "1", "2")
	var tmpName string
	orig := atomicfile.CreateTemp
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err == nil {
			tmpName = f.Name()
			_ = f.Close() // every write now fails, standing in for ENOSPC
		}
		return f, err
	}
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	_, err := h.add("3")
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err %v, want a rewrite error naming %s", err, path)
	}
	if got := readFile(t, path); got != "1\n2\n3\n" {
		t.Fatalf("file %q, want the appended but untrimmed file", got)
	}
	if _, err := os.Stat(tmpName); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("temp file %s left behind: %v", tmpName, err)
	}
}

func TestHistoryDisabledPersistence(t *testing.T) {
	h := mustLoad(t, "", 2)
	mustAdd(t, h, "a", "b", "c")
	if got := h.snapshot(); !slices.Equal(got, []string{"b", "c"}) {
		t.Fatalf("entries %q", got)
	}
}
