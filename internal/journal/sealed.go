// Sealed journals: each line an envelope in seal's line form, bound to
// "journal:<id>" (doc.go, "Encryption at rest").

package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// ErrEncrypted is wrapped when a journal holding sealed lines is read or
// appended to without an encryption key: "journal <path> is encrypted; set
// CHATCLI_ENCRYPTION_KEY". Nothing is appended to such a journal in
// plaintext.
var ErrEncrypted = errors.New("encrypted; set CHATCLI_ENCRYPTION_KEY")

// notChanged ends every wrong-key error: the file is left as it was and
// only the key that sealed it opens it.
var notChanged = i18n.Textf("it was not changed (it opens only with the key that sealed it)")

// LineName is the name a line of journal id is sealed for ("journal:<id>").
func LineName(id string) string { return "journal:" + id }

// idOf is the id of the journal file at path.
func idOf(path string) string { return strings.TrimSuffix(filepath.Base(path), fileExt) }

// DefaultLockTimeout is how long an append waits for another process's
// append to the same journal (which holds the lock for one write and one
// fsync) before failing with ErrLocked: waiting longer means that process
// is stuck.
const DefaultLockTimeout = 10 * time.Second

// ErrLocked is wrapped when another process held a journal's lock longer
// than the lock timeout; the error names the journal file.
var ErrLocked = errors.New("journal: locked by another process")

// lockTimeout is the wait for a journal's lock (a seam: tests shorten it).
var lockTimeout = DefaultLockTimeout

// Bounds of the back-off between attempts to take a held lock, as for
// session locks.
const (
	lockPollMin = 200 * time.Microsecond
	lockPollMax = 5 * time.Millisecond
)

// lockFile takes the exclusive advisory lock of the journal at path,
// waiting with a growing back-off (lockPollMin to lockPollMax) up to
// lockTimeout, then failing with ErrLocked naming the file. A journal is
// replaced whole when it is sealed or rekeyed, and flock(2) locks an
// inode: the lock is retaken until it holds the file the path names now.
// It returns the lock and the locked file's FileInfo (taken through the
// lock's descriptor).
func lockFile(path string) (*flock.Flock, os.FileInfo, error) {
	start := time.Now()
	deadline := start.Add(lockTimeout)
	poll := lockPollMin
	waited := false
	defer func() { lockStats.add(time.Since(start), waited) }()
	for {
		lock, err := storefile.NewLock(path, os.O_CREATE|os.O_RDWR)
		if err != nil {
			return nil, nil, fmt.Errorf("journal: lock %s: %w", path, err)
		}
		ok, err := lock.TryLock()
		if err != nil {
			lock.Close()
			return nil, nil, fmt.Errorf("journal: lock %s: %w", path, err)
		}
		if ok {
			li, err1 := lock.Stat()
			pi, err2 := os.Lstat(path) // a link there is not the journal
			if err1 == nil && err2 == nil && os.SameFile(li, pi) {
				return lock, li, nil
			}
			lock.Unlock() // replaced meanwhile: lock the file the path names now
		} else {
			lock.Close()
		}
		if time.Now().After(deadline) {
			if ok {
				return nil, nil, fmt.Errorf("journal: lock %s: the file kept being replaced for %s", path, lockTimeout)
			}
			return nil, nil, fmt.Errorf("%w: another process held %s for more than %s; it is still writing or is stuck (the lock goes with the process)",
				ErrLocked, path, lockTimeout)
		}
		if !ok {
			waited = true
			time.Sleep(poll)
			poll = min(2*poll, lockPollMax)
		}
	}
}

// encodeLine encodes r as one line, sealed for journal id when k is set.
func encodeLine(r *Record, k seal.Key, id string) ([]byte, error) {
	line, err := EncodeRecord(r)
	if err != nil || k.IsZero() {
		return line, err
	}
	sealed, err := seal.SealLine(k, LineName(id), line[:len(line)-1])
	if err != nil {
		return nil, err
	}
	return append(sealed, '\n'), nil
}

// lineOpener opens the sealed lines of one scan and tells a wrong key from
// a damaged line: a wrong key opens none of them.
type lineOpener struct {
	key          seal.Key
	path, name   string
	opened, fail int
	// unkeyed counts the sealed lines met without a key, plain the
	// plaintext records read: a sealed line in a journal of plaintext
	// records is a damaged line, not a sign that the journal is sealed.
	unkeyed, plain int
	before         Pos // where the record scanLines hands on starts
}

// reasonNoKey is why a sealed line read without a key was skipped.
var reasonNoKey = i18n.Textf("sealed line, and no key to open it")

// sealedNotOpen is why a sealed line that err kept from opening was
// skipped.
func sealedNotOpen(err error) i18n.Text { return i18n.Textf("sealed line does not open: %s", err) }

// open returns the plaintext of a sealed line, or why it was skipped
// (without a key: reasonNoKey; verdict decides whether that fails the
// read).
func (o *lineOpener) open(line []byte) ([]byte, i18n.Text) {
	if o.key.IsZero() {
		o.unkeyed++
		return nil, reasonNoKey
	}
	pt, err := seal.OpenLine(o.key, o.name, line)
	if err != nil {
		o.fail++
		return nil, sealedNotOpen(err)
	}
	o.opened++
	return pt, i18n.Text{}
}

// verdict is the scan's error once every line was read. A journal with
// plaintext records is a plaintext journal: its sealed lines that did not
// open (one forged or pasted there, one without the key) were damaged
// lines, skipped and counted. Otherwise sealed lines read without a key
// fail it with ErrEncrypted, and sealed lines none of which opened with
// one wrapping seal.ErrWrongKey.
func (o *lineOpener) verdict() error {
	switch {
	case o.plain > 0:
		return nil
	case o.unkeyed > 0:
		return i18n.Errorf("journal %s is %w", o.path, ErrEncrypted)
	case o.fail > 0 && o.opened == 0:
		return i18n.Errorf("journal %s: wrong encryption key or damaged file: %w; %s", o.path, seal.ErrWrongKey, notChanged)
	}
	return nil
}
