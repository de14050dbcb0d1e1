package i18n

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOSErrorsAreSaidByType: the operating system's errors a person
// meets (a file missing, a folder not writable, a full disk) are said in
// Portuguese from their errno, alone and inside a catalog error, with the
// operation and the path as they are; English keeps the error's own text.
func TestOSErrorsAreSaidByType(t *testing.T) {
	_, missing := os.Open(filepath.Join(t.TempDir(), "nada.json"))
	rename := os.Rename(filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b"))
	pt := New(Portuguese).Plain()
	for _, c := range []struct {
		err  error
		want string
	}{
		{missing, fmt.Sprintf("open %s: arquivo ou pasta inexistente", missing.(*os.PathError).Path)},
		{rename, "rename " + rename.(*os.LinkError).Old + " " + rename.(*os.LinkError).New + ": arquivo ou pasta inexistente"},
		{&os.PathError{Op: "write", Path: "/s/x.json", Err: syscall.ENOSPC}, "write /s/x.json: não há espaço disponível no dispositivo"},
		{os.NewSyscallError("flock", syscall.EACCES), "flock: permissão negada"},
		{syscall.EROFS, "sistema de arquivos somente para leitura"},
		{&os.PathError{Op: "open", Path: "/x", Err: syscall.ELOOP}, "open /x: too many levels of symbolic links"}, // not in the table: English
	} {
		if got := pt.Error(c.err, nil); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
		wrapped := Errorf("reading %s: %w", "x", c.err)
		if got := New(English).Error(wrapped, nil); got != "reading x: "+c.err.Error() {
			t.Errorf("in English: %q", got)
		}
	}
	inside := Errorf("session: create store %s: %w", "/s", &os.PathError{Op: "mkdir", Path: "/s", Err: syscall.EACCES})
	if got, want := pt.Error(inside, nil), "sessão: criar o armazenamento /s: mkdir /s: permissão negada"; got != want {
		t.Errorf("inside a catalog error: %q, want %q", got, want)
	}
}
