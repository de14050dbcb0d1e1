package tools

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

func TestWriteFile(t *testing.T) {
	b := autoBox(t)
	got, isErr := run(t, b, "write_file", map[string]any{"path": "a/b/c.txt", "content": "日本語\n"})
	if isErr || got != "created a/b/c.txt (10 bytes)" {
		t.Fatalf("%v %q", isErr, got)
	}
	p := filepath.Join(b.Root(), "a", "b", "c.txt")
	if s := readString(t, p); s != "日本語\n" {
		t.Fatalf("%q", s)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != newFileMode {
		t.Fatalf("new file mode %v", fi.Mode())
	}
	// An existing file keeps its mode.
	script := filepath.Join(b.Root(), "run.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o750)
	got, isErr = run(t, b, "write_file", map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho\n"})
	if isErr || got != "wrote run.sh (15 bytes, was 10 bytes)" {
		t.Fatalf("%v %q", isErr, got)
	}
	if fi, _ := os.Stat(script); fi.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v", fi.Mode())
	}
	// An empty content is a valid (empty) file.
	if got, isErr := run(t, b, "write_file", map[string]any{"path": "empty", "content": ""}); isErr {
		t.Fatal(got)
	}
	entries, _ := os.ReadDir(b.Root())
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
	}
}

func TestWriteFileRefusals(t *testing.T) {
	b := autoBox(t)
	put(t, b.Root(), map[string]string{"d/f.txt": "x", "file": "y"})
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "d", "content": "x"}, "d is a directory"},
		{map[string]any{"path": ".", "content": "x"}, "not the workspace root"},
		{map[string]any{"path": "file/sub.txt", "content": "x"}, "file is a file, not a directory"},
		{map[string]any{"path": "f.txt"}, "needs a path and a content"},
		{map[string]any{"content": "x"}, "needs a path and a content"},
	}
	for _, c := range cases {
		got, isErr := run(t, b, "write_file", c.args)
		if !isErr || !strings.Contains(got, c.want) {
			t.Errorf("%v: %v %q", c.args, isErr, got)
		}
	}
	if readString(t, filepath.Join(b.Root(), "file")) != "y" {
		t.Fatal("file changed")
	}
}

func TestFailedWriteLeavesTheFile(t *testing.T) {
	b := autoBox(t)
	put(t, b.Root(), map[string]string{"f.txt": original})
	orig := atomicfile.CreateTemp
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		f, err := orig(dir, pattern)
		if err != nil {
			return nil, err
		}
		return enospc{f}, nil
	}
	for _, c := range changes[:4] {
		got, isErr := run(t, b, c.tool, c.args)
		if !isErr || !strings.Contains(got, "no space left") || !strings.Contains(got, "unchanged") {
			t.Fatalf("%v %q", isErr, got)
		}
		if s := readString(t, filepath.Join(b.Root(), "f.txt")); s != original {
			t.Fatalf("%q", s)
		}
	}
}

// enospc fails every write with ENOSPC.
type enospc struct{ atomicfile.TempFile }

func (enospc) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestEditFile(t *testing.T) {
	const text = "a := 1\nb := 2\nb := 2\n"
	cases := []struct {
		name  string
		args  map[string]any
		want  string
		after string
		isErr bool
	}{
		{"one match", map[string]any{"old_string": "a := 1", "new_string": "a := 10"}, "edited f.go: replaced 1 match", "a := 10\nb := 2\nb := 2\n", false},
		{"zero matches", map[string]any{"old_string": "c := 3", "new_string": "x"}, "error: old_string was not found in f.go (0 matches); read the file and copy the text exactly, whitespace included", text, true},
		{"whitespace differs", map[string]any{"old_string": "a  := 1", "new_string": "x"}, "(0 matches)", text, true},
		{"two matches", map[string]any{"old_string": "b := 2", "new_string": "b := 3"}, "error: old_string matches 2 times in f.go; add surrounding lines to make it unique, or set replace_all to replace all 2", text, true},
		{"replace all", map[string]any{"old_string": "b := 2", "new_string": "b := 3", "replace_all": true}, "edited f.go: replaced 2 matches", "a := 1\nb := 3\nb := 3\n", false},
		{"unique with context", map[string]any{"old_string": "2\nb := 2", "new_string": "2\nb := 4"}, "edited f.go: replaced 1 match", "a := 1\nb := 2\nb := 4\n", false},
		{"delete", map[string]any{"old_string": "a := 1\n", "new_string": ""}, "edited f.go: replaced 1 match", "b := 2\nb := 2\n", false},
		{"empty old", map[string]any{"old_string": "", "new_string": "x"}, "old_string is empty", text, true},
		{"same", map[string]any{"old_string": "a", "new_string": "a"}, "nothing to change", text, true},
		{"missing new", map[string]any{"old_string": "a"}, "needs a path, an old_string and a new_string", text, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := autoBox(t)
			put(t, b.Root(), map[string]string{"f.go": text})
			c.args["path"] = "f.go"
			got, isErr := run(t, b, "edit_file", c.args)
			if isErr != c.isErr || !strings.Contains(got, c.want) {
				t.Fatalf("%v %q", isErr, got)
			}
			if s := readString(t, filepath.Join(b.Root(), "f.go")); s != c.after {
				t.Fatalf("file %q", s)
			}
		})
	}
	b := autoBox(t)
	got, isErr := run(t, b, "edit_file", map[string]any{"path": "new.go", "old_string": "a", "new_string": "b"})
	if !isErr || !strings.Contains(got, "new.go does not exist; use write_file") {
		t.Fatalf("%q", got)
	}
}
