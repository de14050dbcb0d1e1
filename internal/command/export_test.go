package command

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

var exportMsgs = []message.Message{{Role: message.RoleUser, Content: "hello"}, {Role: message.RoleAssistant, Content: "hi"}}

func TestExportNeverReplacesAFileWithoutYes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(p, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Export("md", p, "demo", exportMsgs, time.Now(), nil, false)
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "--yes") {
		t.Fatalf("export over a file: %v", err)
	}
	if data, _ := os.ReadFile(p); string(data) != "mine\n" {
		t.Fatalf("the file was changed: %q", data)
	}
	if _, err := Export("md", p, "demo", exportMsgs, time.Now(), nil, true); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); !strings.Contains(string(data), "hello") {
		t.Fatalf("--yes did not replace it: %q", data)
	}
}

func TestExportPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	now := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for _, c := range []struct{ path, want string }{
		{"~/exports/a.md", filepath.Join(home, "exports", "a.md")},
		{"~", filepath.Join(home, "chatcli-demo-20261201-093000.md")},
		{"~/deep/er/", filepath.Join(home, "deep", "er", "chatcli-demo-20261201-093000.md")},
		{filepath.Join(home, "exports"), filepath.Join(home, "exports", "chatcli-demo-20261201-093000.md")},
		{filepath.Join(home, "new", "folder", "b.md"), filepath.Join(home, "new", "folder", "b.md")},
	} {
		got, err := Export("md", c.path, "demo", exportMsgs, now, nil, false)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if abs, _ := filepath.Abs(got); abs != c.want {
			t.Errorf("%s: wrote %s, want %s", c.path, got, c.want)
		}
		if data, err := os.ReadFile(c.want); err != nil || !strings.Contains(string(data), "hello") {
			t.Errorf("%s: %v %q", c.path, err, data)
		}
	}
	for _, d := range []string{"exports", "deep", "deep/er", "new", "new/folder"} {
		if fi, err := os.Stat(filepath.Join(home, d)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("folder %s: %v %v, want 0700", d, fi.Mode().Perm(), err)
		}
	}
}

func TestExportErrorNamesTheFolder(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o600)
	_, err := Export("md", filepath.Join(blocker, "sub", "a.md"), "demo", exportMsgs, time.Now(), nil, false)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(blocker, "sub")) || strings.Contains(err.Error(), ".tmp-") {
		t.Fatalf("export under a file: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
}

func TestSessionExportCommandTakesYes(t *testing.T) {
	env, out := resumeEnv(t)
	if err := Dispatch(context.Background(), env, "/resume demo"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "out.md")
	os.WriteFile(p, []byte("keep"), 0o600)
	for _, line := range []string{"/session export md " + p, "/session transcript export " + p} {
		if err := Dispatch(context.Background(), env, line); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "--yes") {
			t.Fatalf("%s over a file: %v", line, err)
		}
	}
	if data, _ := os.ReadFile(p); !bytes.Equal(data, []byte("keep")) {
		t.Fatalf("replaced without --yes: %q", data)
	}
	out.Reset()
	if err := Dispatch(context.Background(), env, "/session export md "+p+" --yes"); err != nil || !strings.Contains(out.String(), "Exported 6 messages to "+p) {
		t.Fatalf("--yes: %v %s", err, out)
	}
}
