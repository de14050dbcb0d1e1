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
		got, _, err := x.Expand(context.Background(), p)
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
	got, _, err := x.Expand(context.Background(), "see @file a.txt and tell me\nsecond line")
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
		if _, _, err := x.Expand(context.Background(), p); err == nil {
			t.Errorf("%q expanded", p)
		}
	}
	if _, _, err := x.Expand(context.Background(), "@file missing.txt"); !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("the error does not name the file: %v", err)
	}
}

func TestEnvRedactsSecrets(t *testing.T) {
	x := &Expander{Environ: func() []string {
		return []string{"OPENAI_API_KEY=sk-123", "GITHUB_TOKEN=ghp", "DB=postgres://u:pw@h/db", "LANG=C", "DB_PASSWORD=x"}
	}}
	got, _, err := x.Expand(context.Background(), "@env")
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
	if _, _, err := x.Expand(context.Background(), "@command rm -rf /"); !errors.Is(err, ErrRefused) {
		t.Fatalf("%v", err)
	}
	x.Run = func(_ context.Context, cmd string) (string, error) { return "ran " + cmd, nil }
	got, _, _ := x.Expand(context.Background(), "look: @command ls -l src")
	if !strings.Contains(got, "@command ls -l src\n<command \"ls -l src\">\nran ls -l src\n</command>") {
		t.Fatalf("%q", got)
	}
}

// An image is attached as an image of the message, its reference kept in
// the text.
func TestImageFileIsAnImagePart(t *testing.T) {
	dir := t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")
	os.WriteFile(filepath.Join(dir, "red.png"), png, 0o600)
	got, imgs, err := (&Expander{Dir: dir}).Expand(context.Background(), "what is in @file red.png ?")
	if err != nil || len(imgs) != 1 || imgs[0].MediaType != "image/png" || imgs[0].FileName != "red.png" || imgs[0].Data == "" {
		t.Fatalf("%v %+v", err, imgs)
	}
	if got != "what is in @file red.png [image image/png attached to this message] ?" {
		t.Fatalf("%q", got)
	}
}
