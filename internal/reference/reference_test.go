package reference

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnknownWordsAndAddressesStayAsTyped(t *testing.T) {
	x := &Expander{Dir: t.TempDir()}
	for _, p := range []string{"mail a@b.c", "@nosuch thing", "@", "x @ y", "@files main.go", "@env"} {
		got, err := x.Expand(context.Background(), p)
		if err != nil || got != p {
			t.Errorf("%q became %q (%v)", p, got, err)
		}
	}
}

func TestFileIsInlinedAndAnnounced(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o600)
	var notes []string
	x := &Expander{Dir: dir, Notify: func(s string) { notes = append(notes, s) }}
	got, err := x.Expand(context.Background(), "see @file a.txt and tell me\nsecond line")
	if err != nil {
		t.Fatal(err)
	}
	want := "see @file a.txt\n<file \"a.txt\">\nalpha\n</file> and tell me\nsecond line"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if len(notes) != 1 || notes[0] != "attached a.txt, 6 B" {
		t.Fatalf("notes %q", notes)
	}
	os.WriteFile(filepath.Join(dir, "bin"), []byte("a\x00b"), 0o600)
	for _, p := range []string{"@file missing.txt", "@file bin", "@file"} {
		if _, err := x.Expand(context.Background(), p); err == nil {
			t.Errorf("%q expanded", p)
		}
	}
	if _, err := x.Expand(context.Background(), "@file missing.txt"); !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("the error does not name the file: %v", err)
	}
}

func TestEnvRedactsSecrets(t *testing.T) {
	x := &Expander{Environ: func() []string {
		return []string{"OPENAI_API_KEY=sk-123", "GITHUB_TOKEN=ghp", "DB=postgres://u:pw@h/db", "LANG=C", "DB_PASSWORD=x"}
	}}
	got, err := x.Expand(context.Background(), "@env")
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"sk-123", "ghp", "pw@h", "=x"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q leaked:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "LANG=C") || !strings.Contains(got, "OPENAI_API_KEY=[redacted]") {
		t.Fatalf("%s", got)
	}
}

func TestRefusedCommandSendsNothing(t *testing.T) {
	x := &Expander{Run: func(context.Context, string) (string, error) { return "", ErrRefused }}
	if _, err := x.Expand(context.Background(), "@command rm -rf /"); !errors.Is(err, ErrRefused) {
		t.Fatalf("%v", err)
	}
	x.Run = func(_ context.Context, cmd string) (string, error) { return "ran " + cmd, nil }
	got, _ := x.Expand(context.Background(), "look: @command ls -l src")
	if !strings.Contains(got, "@command ls -l src\n<command \"ls -l src\">\nran ls -l src\n</command>") {
		t.Fatalf("%q", got)
	}
}
