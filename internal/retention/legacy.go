package retention

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// legacyMarkerPath is where builds before the locks folder kept the open
// marker of session name: sessions/.<name>.open. Plan and Apply still
// honour it, so a session an older build has open is never removed; an
// older build's own pass does not know locks/ and so does not see this
// build's markers (the README says to upgrade every chatcli sharing a
// store before pruning with it). This build does not also hold a marker
// at the older place: that file would sit in sessions/ for as long as a
// session is open (and, after a crash, until a prune removes it), and
// sessions/ holds nothing but session files.
func legacyMarkerPath(home, name string) string {
	return filepath.Join(sessionsDir(home), "."+name+".open")
}

// markersDir makes sure the folder of the open markers (the sessions'
// locks folder) is a folder of the store, creating it (0700) when
// missing: a link there is refused (storefile.ErrNotRegular) and no marker
// is made through it.
func markersDir(home string) error {
	dir := filepath.Join(home, session.LocksDirName)
	err := storefile.Dir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			err = storefile.Dir(dir)
		}
	}
	return err
}

// isLegacyLock reports whether a file name of sessions/ is a lock file or
// open marker of an older build: ".<name>.lock" or ".<name>.open" (never a
// temp file, see isTemp).
func isLegacyLock(file string) bool {
	return strings.HasPrefix(file, ".") && !isTemp(file) &&
		(strings.HasSuffix(file, ".lock") || strings.HasSuffix(file, ".open"))
}

// removeLegacyLock deletes an older build's lock file or open marker while
// holding it exclusively, without waiting and without creating it, and
// only while it is still the file at its path: a process that holds it
// keeps it, and one waiting on it notices the removal as it does after a
// rename (package session) and locks a new file.
func removeLegacyLock(it Item) (i18n.Text, error) {
	lock, err := storefile.NewLock(it.Path, os.O_RDWR)
	ok := false
	if err == nil {
		ok, err = lock.TryLock()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return i18n.Textf("already gone"), nil
	case err != nil:
		return i18n.Text{}, fmt.Errorf("retention: lock %s: %w", it.Path, err)
	case !ok:
		return i18n.Textf("held by a running chatcli"), nil
	}
	defer lock.Unlock()
	if !stillAt(lock) {
		return i18n.Textf("already gone"), nil
	}
	if err := os.Remove(it.Path); err != nil {
		return i18n.Text{}, fmt.Errorf("retention: remove %s: %w", it.Path, err)
	}
	return i18n.Text{}, atomicfile.SyncDir(filepath.Dir(it.Path))
}
