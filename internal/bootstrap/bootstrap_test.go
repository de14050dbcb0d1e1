package bootstrap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestWorkspaceWinsAndOrderIsFixed(t *testing.T) {
	work, home := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "SOUL.md"), "home soul")
	write(t, filepath.Join(work, "SOUL.md"), "work soul")
	write(t, filepath.Join(home, "RULES.md"), "home rules")
	write(t, filepath.Join(work, "AGENTS.md"), "work agents")
	files, warns := NewLoader(work, home).Load()
	if len(warns) != 0 {
		t.Fatal(warns)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Name+"="+f.Content)
	}
	want := "AGENTS.md=work agents|SOUL.md=work soul|RULES.md=home rules"
	if strings.Join(got, "|") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, "|"), want)
	}
	text := Text(files)
	if strings.Contains(text, "home soul") || !strings.Contains(text, "## SOUL.md\n\nwork soul") {
		t.Fatalf("text:\n%s", text)
	}
}

func TestReadAgainWhenChanged(t *testing.T) {
	work := t.TempDir()
	p := filepath.Join(work, "USER.md")
	write(t, p, "first")
	l := NewLoader(work, "")
	if f, _ := l.Load(); len(f) != 1 || f[0].Content != "first" {
		t.Fatalf("%+v", f)
	}
	write(t, p, "second, longer")
	os.Chtimes(p, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	if f, _ := l.Load(); len(f) != 1 || f[0].Content != "second, longer" {
		t.Fatalf("not read again: %+v", f)
	}
	os.Remove(p)
	if f, _ := l.Load(); len(f) != 0 {
		t.Fatalf("a removed file is still sent: %+v", f)
	}
}

func TestCapCutsOnACharacterAndSaysSo(t *testing.T) {
	work := t.TempDir()
	big := strings.Repeat("é", MaxFileBytes) // 2 bytes each
	write(t, filepath.Join(work, "IDENTITY.md"), "x"+big)
	files, _ := NewLoader(work, "").Load()
	if len(files) != 1 || !files[0].Truncated || len(files[0].Content) > MaxFileBytes {
		t.Fatalf("not cut: truncated=%v len=%d", files[0].Truncated, len(files[0].Content))
	}
	if !strings.HasSuffix(files[0].Content, "é") {
		t.Fatal("cut inside a character")
	}
	if !strings.Contains(Text(files), "was cut to its first") {
		t.Fatal("the cut is not said")
	}
}

func TestNotARegularFileIsSkippedByPath(t *testing.T) {
	work, home := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(work, "SOUL.md"), 0o700)
	write(t, filepath.Join(home, "SOUL.md"), "home")
	files, warns := NewLoader(work, home).Load()
	if len(files) != 0 || len(warns) != 1 || !strings.Contains(warns[0], filepath.Join(work, "SOUL.md")) {
		t.Fatalf("files %+v warnings %q", files, warns)
	}
}
