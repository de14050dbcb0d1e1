package gateway

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

func TestStateRoundTrip(t *testing.T) {
	home := t.TempDir()
	s, err := OpenState(home)
	if err != nil {
		t.Fatal(err)
	}
	p := Principal{"telegram", "42"}
	if err := s.SetPrincipal(p, PrincipalState{Bound: "x", Mirror: "gw-telegram-42"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetOffset("telegram", 7); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.FirstSeen("slack", "Ev1"); !ok {
		t.Fatal("a new id reported as seen")
	}
	s, err = OpenState(home)
	if err != nil {
		t.Fatal(err)
	}
	if s.Principal(p).Bound != "x" || s.Offset("telegram") != 7 {
		t.Fatalf("reopened: %+v offset %d", s.Principal(p), s.Offset("telegram"))
	}
	if ok, _ := s.FirstSeen("slack", "Ev1"); ok {
		t.Fatal("an id seen before a restart reported as new")
	}
	info, err := os.Stat(s.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v, %v", info, err)
	}
}

func TestBadStateFileIsRefusedByNameAndKept(t *testing.T) {
	for name, content := range map[string]string{
		"empty":   "",
		"cut":     `{"version":1,"principals":{"telegram:42"`,
		"too new": `{"version":2,"principals":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, "gateway", "state.json")
			os.MkdirAll(filepath.Dir(path), 0o700)
			os.WriteFile(path, []byte(content), 0o600)
			_, err := OpenState(home)
			if !errors.Is(err, ErrState) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want ErrState naming %s", err, path)
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Fatalf("the file changed: %q", got)
			}
		})
	}
}

func TestFailedStateWriteLeavesTheOldFile(t *testing.T) {
	home := t.TempDir()
	s, _ := OpenState(home)
	if err := s.SetOffset("telegram", 5); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.Path())
	create := atomicfile.CreateTemp
	atomicfile.CreateTemp = func(string, string) (atomicfile.TempFile, error) { return nil, syscall.ENOSPC }
	defer func() { atomicfile.CreateTemp = create }()
	err := s.SetOffset("telegram", 9)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), s.Path()) {
		t.Fatalf("error %v", err)
	}
	if after, _ := os.ReadFile(s.Path()); string(after) != string(before) {
		t.Fatalf("the file changed:\n%s\nwas\n%s", after, before)
	}
	if s.Offset("telegram") != 5 {
		t.Fatalf("offset %d in memory after a failed write, want 5", s.Offset("telegram"))
	}
}
