package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFileWindows(t *testing.T) {
	b := autoBox(t)
	put(t, b.Root(), map[string]string{
		"ten.txt":   numbered(10),
		"nonl.txt":  "a\nb\nc",
		"empty.txt": "",
		"crlf.txt":  "a\r\nb\r\n",
		"big.txt":   numbered(2500),
	})
	cases := []struct {
		args  map[string]any
		want  string
		isErr bool
	}{
		{map[string]any{"path": "ten.txt"}, numbered(10), false},
		{map[string]any{"path": "ten.txt", "offset": 3, "limit": 2}, "line 3\nline 4\n[lines 3-4 of 10 shown; read on with offset 5]", false},
		{map[string]any{"path": "ten.txt", "offset": 9}, "line 9\nline 10\n[lines 9-10 of 10 shown]", false},
		{map[string]any{"path": "ten.txt", "limit": 10}, numbered(10), false},
		{map[string]any{"path": "ten.txt", "offset": 10, "limit": 1}, "line 10\n[lines 10-10 of 10 shown]", false},
		{map[string]any{"path": "ten.txt", "offset": 11}, "error: offset 11 is past the end of ten.txt, which has 10 lines", true},
		{map[string]any{"path": "ten.txt", "offset": 0}, "error: offset 0: lines are numbered from 1", true},
		{map[string]any{"path": "ten.txt", "limit": 0}, "error: limit 0: must be at least 1", true},
		{map[string]any{"path": "nonl.txt"}, "a\nb\nc", false},
		{map[string]any{"path": "nonl.txt", "offset": 3}, "c\n[lines 3-3 of 3 shown]", false},
		{map[string]any{"path": "nonl.txt", "limit": 2}, "a\nb\n[lines 1-2 of 3 shown; read on with offset 3]", false},
		{map[string]any{"path": "crlf.txt"}, "a\r\nb\r\n", false},
		{map[string]any{"path": "empty.txt"}, "[empty.txt is empty]", false},
		{map[string]any{"path": "missing.txt"}, "error: missing.txt does not exist; list_dir shows what is there", true},
		{map[string]any{"path": "."}, "error: . is a directory; use list_dir", true},
		{map[string]any{"path": ""}, "error: read_file needs a path", true},
	}
	for _, c := range cases {
		got, isErr := run(t, b, "read_file", c.args)
		if got != c.want || isErr != c.isErr {
			t.Errorf("%v:\n got %v %q\nwant %v %q", c.args, isErr, got, c.isErr, c.want)
		}
	}
	got, _ := run(t, b, "read_file", map[string]any{"path": "big.txt"})
	if !strings.HasPrefix(got, "line 1\n") || !strings.HasSuffix(got, "line 2000\n[lines 1-2000 of 2500 shown; read on with offset 2001]") {
		t.Errorf("default window: %q…%q", got[:20], got[len(got)-80:])
	}
}

func TestReadFileRefusesBinaryFiles(t *testing.T) {
	b := autoBox(t)
	put(t, b.Root(), map[string]string{"bin": "ELF\x00\x01\x02"})
	if got, isErr := run(t, b, "read_file", map[string]any{"path": "bin"}); !isErr || !strings.Contains(got, "binary file") {
		t.Errorf("%q", got)
	}
}

func TestReadFileCapsLongLines(t *testing.T) {
	b := newBox(t, Options{AutoExec: true, OutputCap: 200})
	line := strings.Repeat("絵文字👩🏽‍💻", 1000)
	put(t, b.Root(), map[string]string{"long.txt": "START" + line + "END\nsecond\n"})
	got, isErr := run(t, b, "read_file", map[string]any{"path": "long.txt", "limit": 1})
	if isErr || !strings.HasPrefix(got, "START") || !strings.Contains(got, "bytes cut") ||
		!strings.HasSuffix(got, "END\n[lines 1-1 of 2 shown; read on with offset 2]") {
		t.Fatalf("%q", got)
	}
	checkClipped(t, "START"+line+"END\n", strings.TrimSuffix(got, "[lines 1-1 of 2 shown; read on with offset 2]"), 200)
}

func TestListDir(t *testing.T) {
	b := autoBox(t)
	put(t, b.Root(), map[string]string{"b.txt": "", "a/x.go": "", "a/y/z.go": "", ".git/HEAD": "", "c/.keep": ""})
	os.Symlink("b.txt", filepath.Join(b.Root(), "link"))
	os.Symlink("/etc", filepath.Join(b.Root(), "a", "etc"))
	cases := []struct {
		args  map[string]any
		want  string
		isErr bool
	}{
		{map[string]any{}, ".git/\na/\nb.txt\nc/\nlink -> b.txt", false},
		{map[string]any{"path": "a"}, "etc -> /etc\nx.go\ny/", false},
		{map[string]any{"recursive": true}, "a/\na/etc -> /etc\na/x.go\na/y/\na/y/z.go\nb.txt\nc/\nc/.keep\nlink -> b.txt", false},
		{map[string]any{"path": "a", "recursive": true}, "etc -> /etc\nx.go\ny/\ny/z.go", false},
		{map[string]any{"max_entries": 2}, ".git/\na/\n[3 more entries not shown; raise max_entries to see them]", false},
		{map[string]any{"recursive": true, "max_entries": 3}, "a/\na/etc -> /etc\na/x.go\n[listing stopped at 3 entries; there are more: list a subdirectory or raise max_entries]", false},
		{map[string]any{"path": "a/y/z.go"}, "error: a/y/z.go is not a directory; use read_file", true},
		{map[string]any{"path": "nope"}, "error: nope does not exist", true},
		{map[string]any{"path": "a/etc"}, "", true},
		{map[string]any{"max_entries": 0}, "error: max_entries 0: must be at least 1", true},
	}
	for _, c := range cases {
		got, isErr := run(t, b, "list_dir", c.args)
		if isErr != c.isErr || (c.want != "" && got != c.want) {
			t.Errorf("%v:\n got %v %q\nwant %v %q", c.args, isErr, got, c.isErr, c.want)
		}
	}
	os.MkdirAll(filepath.Join(b.Root(), "empty"), 0o755)
	if got, _ := run(t, b, "list_dir", map[string]any{"path": "empty"}); got != "[empty is empty]" {
		t.Errorf("%q", got)
	}
}
