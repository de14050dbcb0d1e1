package contexts

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

func put(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func names(c *Context) string {
	var n []string
	for _, f := range c.Files {
		n = append(n, f.Path)
	}
	return strings.Join(n, " ")
}

// .gitignore files are honoured as git does: the repository's root file
// for a sub-folder named on the command line, nested files, negations;
// .git and binary files are never taken.
func TestCreateHonoursGitignore(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o700)
	put(t, repo, ".git/config", "[core]")
	put(t, repo, ".gitignore", "*.log\nbuild/\n")
	put(t, repo, "src/main.go", "package main\n")
	put(t, repo, "src/debug.log", "noise")
	put(t, repo, "src/build/out.txt", "generated")
	put(t, repo, "src/gen/.gitignore", "*\n!keep.txt\n")
	put(t, repo, "src/gen/drop.txt", "x")
	put(t, repo, "src/gen/keep.txt", "kept")
	put(t, repo, "src/logo.png", "\x89PNG\x00\x00binary")
	st := Open(t.TempDir(), seal.Key{})
	c, err := st.Create("src", []string{filepath.Join(repo, "src")})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(c); got != "gen/keep.txt main.go" {
		t.Fatalf("files %q", got)
	}
	if c.Skipped.Binary != 1 || c.Skipped.Ignored < 3 {
		t.Fatalf("skipped %+v", c.Skipped)
	}
	back, err := st.Load("src")
	if err != nil || back.Bytes() != c.Bytes() || len(back.Chunks) != 2 {
		t.Fatalf("%v %+v", err, back)
	}
	if _, err := st.Create("src", []string{repo}); !errors.Is(err, ErrExists) {
		t.Fatalf("second create: %v", err)
	}
}

func TestSizeCapIsSaidInTheError(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "a.txt", strings.Repeat("a\n", MaxBytes/4))
	put(t, dir, "b.txt", strings.Repeat("b\n", MaxBytes/2))
	st := Open(t.TempDir(), seal.Key{})
	_, err := st.Create("big", []string{dir})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "6.0 MiB") || !strings.Contains(err.Error(), "4.0 MiB") {
		t.Fatalf("%v", err)
	}
	if names, _ := st.List(); len(names) != 0 {
		t.Fatalf("a refused context was stored: %q", names)
	}
}

func TestChunksAreCutBetweenLinesAndKeepLineNumbers(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		b.WriteString(strings.Repeat("é", i%7) + "line\n")
	}
	chunks := chunk("f", b.String())
	var joined strings.Builder
	for i, c := range chunks {
		if len(c.Text) > ChunkBytes || (i < len(chunks)-1 && !strings.HasSuffix(c.Text, "\n")) {
			t.Fatalf("chunk %d: %d bytes, ends %q", i, len(c.Text), c.Text[len(c.Text)-3:])
		}
		if want := strings.Count(joined.String(), "\n") + 1; c.Line != want {
			t.Fatalf("chunk %d starts at line %d, want %d", i, c.Line, want)
		}
		joined.WriteString(c.Text)
	}
	if joined.String() != b.String() {
		t.Fatal("chunks do not add up to the file")
	}
}

func TestSealedContextHoldsNoPlaintext(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "secret.md", "the launch code is MARKER-5521\n")
	k, _ := seal.ParseKey(strings.Repeat("Q", 43) + "=")
	st := Open(t.TempDir(), k)
	if _, err := st.Create("s", []string{dir}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(st.Dir(), "s.json"))
	if !seal.IsSealed(raw) || bytes.Contains(raw, []byte("MARKER-5521")) {
		t.Fatal("plaintext in a sealed context")
	}
	if _, err := Open(filepath.Dir(st.Dir()), seal.Key{}).Load("s"); !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "s.json") {
		t.Fatalf("without the key: %v", err)
	}
}

func TestSupplierSendsByPriorityRetrievesAndSkipsMissing(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		put(t, dir, filepath.Join("notes", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".md"), "ordinary text about nothing in particular\n")
	}
	put(t, dir, "notes/zebra.md", "the zebra migration happens in july\n")
	put(t, dir, "small.md", "SMALL CONTEXT\n")
	st := Open(t.TempDir(), seal.Key{})
	if _, err := st.Create("notes", []string{filepath.Join(dir, "notes")}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create("small", []string{filepath.Join(dir, "small.md")}); err != nil {
		t.Fatal(err)
	}
	var notices []string
	s := &Supplier{Contexts: st, Notify: func(n string) { notices = append(notices, n) }}
	att, _ := EncodeAttachments([]Attachment{
		{ContextID: "notes", Mode: ModeRetrieval},
		{ContextID: "gone", Mode: ModeFull},
		{ContextID: "small", Priority: 5, Mode: ModeFull},
	})
	msgs := s.Messages(att, "when is the zebra migration?")
	if len(msgs) != 2 || !strings.Contains(msgs[0].Content, "SMALL CONTEXT") {
		t.Fatalf("priority order: %+v", msgs)
	}
	if !strings.Contains(msgs[1].Content, "zebra migration happens") || strings.Count(msgs[1].Content, "--- ") > RetrievalChunks {
		t.Fatalf("retrieval:\n%s", msgs[1].Content)
	}
	s.Messages(att, "again")
	if len(notices) != 1 || !strings.Contains(notices[0], `"gone" skipped`) {
		t.Fatalf("notices %q", notices)
	}
	var back []Attachment
	json.Unmarshal(att, &back)
	if back[1].ContextID != "gone" {
		t.Fatal("the missing record was dropped")
	}
}

func TestParseChunkList(t *testing.T) {
	got, err := ParseChunkList("3,1-2,2", 5)
	if err != nil || len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"0", "6", "2-1", "a", "1,,2"} {
		if _, err := ParseChunkList(bad, 5); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
}
