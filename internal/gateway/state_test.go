package gateway

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
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

// TestStateFileThatIsNotARegularFileIsRefused: a link or a named pipe at
// the state file's path is refused by name (storefile), never followed nor
// waited on, and left as it was.
func TestStateFileThatIsNotARegularFileIsRefused(t *testing.T) {
	plant := map[string]func(path string) error{
		"link": func(path string) error {
			target := filepath.Join(filepath.Dir(path), "elsewhere.json")
			if err := os.WriteFile(target, []byte(`{"version":1,"offsets":{"telegram":9}}`), 0o600); err != nil {
				return err
			}
			return os.Symlink(target, path)
		},
		"named pipe": func(path string) error { return syscall.Mkfifo(path, 0o600) },
	}
	for name, plantAt := range plant {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, "gateway", "state.json")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := plantAt(path); err != nil {
				t.Skipf("cannot make a %s here: %v", name, err)
			}
			done := make(chan error, 1)
			go func() { _, err := OpenState(home); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("OpenState waited on the entry at the state file's path")
			}
			if !errors.Is(err, ErrState) || !errors.Is(err, storefile.ErrNotRegular) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want ErrState and storefile.ErrNotRegular naming %s", err, path)
			}
			if st, lerr := os.Lstat(path); lerr != nil || st.Mode().Type() == 0 {
				t.Fatalf("the entry was replaced: %v %v", st, lerr)
			}
		})
	}
}
