package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// confined builds a workspace and a sibling directory outside it:
//
//	ws/a.txt  ws/sub/b.txt  ws/.git/config
//	ws/esc -> out/secret.txt         ws/escdir -> out
//	ws/dangling -> out/new.txt       ws/sub/up -> ../..
//	ws/inlink -> a.txt               ws/indangling -> made.txt
//	out/secret.txt
func confined(t *testing.T) (b *Box, ws, out string) {
	t.Helper()
	base := t.TempDir()
	ws, out = filepath.Join(base, "ws"), filepath.Join(base, "out")
	put(t, ws, map[string]string{"a.txt": "alpha\n", "sub/b.txt": "beta\n"})
	put(t, out, map[string]string{"secret.txt": "secret\n"})
	links := map[string]string{
		"esc":        filepath.Join(out, "secret.txt"),
		"escdir":     out,
		"dangling":   filepath.Join(out, "new.txt"),
		"sub/up":     "../..",
		"inlink":     "a.txt",
		"indangling": "made.txt",
	}
	for name, dest := range links {
		if err := os.Symlink(dest, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	return newBox(t, Options{Root: ws, AutoExec: true}), ws, out
}

func TestConfinement(t *testing.T) {
	type tc struct {
		tool string
		args map[string]any
	}
	var cases []tc
	escapes := []string{"../x", "a/../../x", "../out/secret.txt", "sub/../../out/secret.txt",
		"/etc/passwd", "esc", "escdir/secret.txt", "escdir", "sub/up/out/secret.txt", "dangling"}
	for _, p := range escapes {
		cases = append(cases,
			tc{"read_file", map[string]any{"path": p}},
			tc{"list_dir", map[string]any{"path": p}},
			tc{"search_files", map[string]any{"pattern": "secret", "path": p}},
			tc{"write_file", map[string]any{"path": p, "content": "pwned"}},
			tc{"edit_file", map[string]any{"path": p, "old_string": "secret", "new_string": "pwned"}},
		)
	}
	for _, c := range cases {
		t.Run(c.tool+" "+c.args["path"].(string), func(t *testing.T) {
			b, _, out := confined(t)
			got, isErr := run(t, b, c.tool, c.args)
			if !isErr || !strings.Contains(got, "is outside the workspace") {
				t.Fatalf("not refused: %v %q", isErr, got)
			}
			if strings.Contains(got, "pwned") || strings.Contains(got, "secret\n") {
				t.Fatalf("leaked: %q", got)
			}
			if s := readString(t, filepath.Join(out, "secret.txt")); s != "secret\n" {
				t.Fatalf("outside file changed: %q", s)
			}
			if _, err := os.Lstat(filepath.Join(out, "new.txt")); !os.IsNotExist(err) {
				t.Fatalf("file created outside: %v", err)
			}
		})
	}
}

func TestPathsInsideAreAllowed(t *testing.T) {
	b, ws, _ := confined(t)
	for _, p := range []string{"a.txt", "./a.txt", "sub/../a.txt", filepath.Join(ws, "a.txt"), "inlink", "sub/up/ws/a.txt"} {
		got, isErr := run(t, b, "read_file", map[string]any{"path": p})
		if isErr || got != "alpha\n" {
			t.Errorf("read %s: %v %q", p, isErr, got)
		}
	}
	// Writing through a link inside the workspace changes its target and
	// keeps the link; a dangling link inside creates its target.
	if got, isErr := run(t, b, "write_file", map[string]any{"path": "inlink", "content": "A\n"}); isErr {
		t.Fatal(got)
	}
	if fi, _ := os.Lstat(filepath.Join(ws, "inlink")); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if s := readString(t, filepath.Join(ws, "a.txt")); s != "A\n" {
		t.Fatalf("target: %q", s)
	}
	if got, isErr := run(t, b, "write_file", map[string]any{"path": "indangling", "content": "m"}); isErr {
		t.Fatal(got)
	}
	if s := readString(t, filepath.Join(ws, "made.txt")); s != "m" {
		t.Fatalf("made.txt: %q", s)
	}
}

func TestSymlinkedRootAcceptsBothSpellings(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	put(t, real, map[string]string{"f.txt": "x"})
	alias := filepath.Join(base, "alias")
	if err := os.Symlink(real, alias); err != nil {
		t.Fatal(err)
	}
	b := newBox(t, Options{Root: alias, AutoExec: true})
	for _, p := range []string{"f.txt", filepath.Join(alias, "f.txt"), filepath.Join(real, "f.txt")} {
		if got, isErr := run(t, b, "read_file", map[string]any{"path": p}); isErr || got != "x" {
			t.Errorf("%s: %v %q", p, isErr, got)
		}
	}
	if got, isErr := run(t, b, "read_file", map[string]any{"path": filepath.Join(base, "real2")}); !isErr || !strings.Contains(got, "outside the workspace") {
		t.Errorf("sibling with a shared prefix: %q", got)
	}
}

func TestSymlinkLoopIsAnError(t *testing.T) {
	b := autoBox(t)
	os.Symlink("l2", filepath.Join(b.Root(), "l1"))
	os.Symlink("l1", filepath.Join(b.Root(), "l2"))
	got, isErr := run(t, b, "read_file", map[string]any{"path": "l1"})
	if !isErr || !strings.Contains(got, "too many levels") {
		t.Fatalf("%v %q", isErr, got)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	for _, o := range []Options{{}, {Root: filepath.Join(t.TempDir(), "missing")}, {Root: t.TempDir(), OutputCap: -1}, {Root: t.TempDir(), CommandTimeout: -1}} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) accepted", o)
		}
	}
}

func TestRefusalMessages(t *testing.T) {
	b, ws, out := confined(t)
	cases := map[string]string{
		"../x":   "error: path ../x is outside the workspace " + ws + "; use a path inside it",
		"esc":    "error: path esc is outside the workspace " + ws + " (it resolves to " + filepath.Join(out, "secret.txt") + "); use a path inside it",
		"a\x00b": "error: path \"a\\x00b\" contains a NUL byte",
	}
	for p, want := range cases {
		if got, _ := run(t, b, "read_file", map[string]any{"path": p}); got != want {
			t.Errorf("%q:\n got %q\nwant %q", p, got, want)
		}
	}
}
