//go:build unix

package storefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// hostile makes, in dir, one entry of each kind a store must refuse and
// returns their paths by kind. outside is a file outside the store the
// links point to.
func hostile(t *testing.T, dir, outside string) map[string]string {
	t.Helper()
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := syscall.Mkfifo(p("fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero": "/dev/zero", "loop": p("loop"), "out": outside, "dangling": outside + ".new"} {
		if err := os.Symlink(target, p(name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(p("dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"named pipe": p("fifo"), "link to /dev/zero": p("zero"), "link loop": p("loop"),
		"link outside": p("out"), "dangling link": p("dangling"), "directory": p("dir")}
}

// within runs fn and fails the test if it has not returned in 2 s (a FIFO
// opened without O_NONBLOCK never returns).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("%s: still blocked after 2 s", what)
	}
}

func TestEveryOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	opens := map[string]func(string) error{
		"Open":     func(p string) error { _, _, err := Open(p); return err },
		"ReadFile": func(p string) error { _, err := ReadFile(p); return err },
		"OpenFile append": func(p string) error {
			f, _, err := OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err == nil {
				_, err = f.WriteString("leak")
				f.Close()
				return errors.Join(errors.New("opened"), err)
			}
			return err
		},
		"OpenFile trunc": func(p string) error { _, _, err := OpenFile(p, os.O_RDWR|os.O_TRUNC, 0o600); return err },
		"Lstat":          func(p string) error { _, err := Lstat(p); return err },
		"NewLock": func(p string) error {
			l, err := NewLock(p, os.O_CREATE|os.O_RDWR)
			if err != nil {
				return err
			}
			ok, err := l.TryLock()
			l.Close()
			if ok && err == nil {
				return errors.New("locked")
			}
			return err
		},
	}
	for kind, p := range hostile(t, dir, outside) {
		for verb, open := range opens {
			var err error
			within(t, verb+" "+kind, func() { err = open(p) })
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s of a %s: error %v, want one wrapping ErrNotRegular", verb, kind, err)
			}
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != "kept" {
		t.Errorf("the file outside the store holds %q, want it untouched", data)
	}
	if _, err := os.Lstat(outside + ".new"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file was created outside the store through a dangling link: %v", err)
	}
}

func TestTheErrorSaysWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(p)
	if want := "open " + p + ": not a regular file (named pipe)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestDirRefusesALinkToAFolder(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "trash")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if err := Dir(link); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Dir of a link to a folder: %v, want ErrNotRegular", err)
	}
	if err := Dir(dir); err != nil {
		t.Errorf("Dir of a folder: %v", err)
	}
	if err := Dir(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Dir of nothing: %v, want fs.ErrNotExist", err)
	}
}

func TestReadFileReadsARegularFileWhole(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	want := make([]byte, 100_000)
	for i := range want {
		want[i] = byte(i)
	}
	if err := os.WriteFile(p, want, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(p)
	if err != nil || string(got) != string(want) {
		t.Fatalf("ReadFile: %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
	f, st, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p, append(want, want...), 0o600); err != nil { // grows after the open
		t.Fatal(err)
	}
	got, err = io.ReadAll(Reader(f, st))
	if err != nil || len(got) != len(want) {
		t.Errorf("Reader read %d bytes (%v), want the %d seen at the open", len(got), err, len(want))
	}
}
