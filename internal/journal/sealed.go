// Sealed journals: each line an envelope in seal's line form, bound to
// "journal:<id>" (doc.go, "Encryption at rest").

package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
)

// ErrEncrypted is wrapped when a journal holding sealed lines is read or
// appended to without an encryption key: "journal <path> is encrypted; set
// CHATCLI_ENCRYPTION_KEY". Nothing is appended to such a journal in
// plaintext.
var ErrEncrypted = errors.New("encrypted; set CHATCLI_ENCRYPTION_KEY")

// notChanged ends every wrong-key error: the file is left as it was and
// only the key that sealed it opens it.
const notChanged = "it was not changed (it opens only with the key that sealed it)"

// LineName is the name a line of journal id is sealed for ("journal:<id>").
func LineName(id string) string { return "journal:" + id }

// idOf is the id of the journal file at path.
func idOf(path string) string { return strings.TrimSuffix(filepath.Base(path), fileExt) }

// lockFile takes the exclusive advisory lock of the journal at path. A
// journal is replaced whole when it is sealed or rekeyed, and flock(2)
// locks an inode: the lock is retaken until it holds the file the path
// names now. It returns the lock and the locked file's FileInfo (taken
// through the lock's descriptor).
func lockFile(path string) (*flock.Flock, os.FileInfo, error) {
	for range 100 {
		lock := flock.New(path)
		if err := lock.Lock(); err != nil {
			return nil, nil, fmt.Errorf("journal: lock %s: %w", path, err)
		}
		li, err1 := lock.Stat()
		pi, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(li, pi) {
			return lock, li, nil
		}
		lock.Unlock()
	}
	return nil, nil, fmt.Errorf("journal: lock %s: the file keeps being replaced", path)
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
}

// open returns the plaintext of a sealed line, or why it was skipped.
// Without a key it returns an ErrEncrypted error.
func (o *lineOpener) open(line []byte) ([]byte, string, error) {
	if o.key.IsZero() {
		return nil, "", fmt.Errorf("journal %s is %w", o.path, ErrEncrypted)
	}
	pt, err := seal.OpenLine(o.key, o.name, line)
	if err != nil {
		o.fail++
		return nil, "sealed line does not open: " + err.Error(), nil
	}
	o.opened++
	return pt, "", nil
}

// verdict is the scan's error when no sealed line opened.
func (o *lineOpener) verdict() error {
	if o.fail > 0 && o.opened == 0 {
		return fmt.Errorf("journal %s: wrong encryption key or damaged file: %w; %s", o.path, seal.ErrWrongKey, notChanged)
	}
	return nil
}

// transformLines rewrites every non-empty line of data with fn; a last
// line without "\n" gets one. It reports whether any line changed.
func transformLines(data []byte, fn func([]byte) ([]byte, error)) ([]byte, bool, error) {
	var out []byte
	changed := false
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if len(line) == 0 {
			continue
		}
		nl, err := fn(line)
		if err != nil {
			return nil, false, err
		}
		changed = changed || !bytes.Equal(nl, line)
		out = append(append(out, nl...), '\n')
	}
	return out, changed, nil
}

// resealLine returns line (sealed or not, read under name from) sealed
// under name to with key k; a line already sealed under k and to is kept.
func resealLine(line []byte, k, old seal.Key, from, to string) ([]byte, error) {
	pt := line
	if seal.IsSealedLine(line) {
		if from == to {
			if _, err := seal.OpenLine(k, to, line); err == nil {
				return line, nil
			}
		}
		if old.IsZero() {
			return nil, ErrEncrypted
		}
		var err error
		if pt, err = seal.OpenLine(old, from, line); err != nil {
			return nil, err
		}
	}
	if k.IsZero() {
		return pt, nil
	}
	return seal.SealLine(k, to, pt)
}

// sealPlainLines replaces the journal with every line sealed followed by
// recs, in one atomic replacement; the caller holds the lock and has read
// the file to its end. Used when a journal with plaintext lines is
// appended to with a key. The lock then holds the old inode, so the next
// Sync reads the new file from the top (j.file is nil).
func (j *Journal) sealPlainLines(recs []Record) error {
	data, err := os.ReadFile(j.path)
	if err != nil {
		return fmt.Errorf("journal: read %s: %w", j.path, err)
	}
	name := LineName(j.id)
	out, _, err := transformLines(data, func(l []byte) ([]byte, error) { return resealLine(l, j.key, j.key, name, name) })
	if err != nil {
		return fmt.Errorf("journal: seal %s: %w", j.path, err)
	}
	for _, r := range recs {
		line, err := encodeLine(&r, j.key, j.id)
		if err != nil {
			return fmt.Errorf("journal: encode record: %w", err)
		}
		out = append(out, line...)
	}
	if err := atomicfile.WriteFile(j.path, out); err != nil {
		return err
	}
	j.pos.offset, j.plain, j.file = int64(len(out)), 0, nil
	j.pos.line = bytes.Count(out, []byte("\n")) + 1
	return nil
}

// Rekey re-seals every line of the journal at path under key nw, opening
// sealed lines with nw or else old, and sealing plaintext lines, in one
// atomic replacement under the journal's lock: at every moment each line
// opens with old or nw. It reports whether the file changed (false when
// every line already opens with nw, or the file is missing). A line that
// opens with neither key fails the whole file (wrapping seal.ErrWrongKey),
// which is left unchanged.
func Rekey(path string, old, nw seal.Key) (bool, error) {
	if nw.IsZero() {
		return false, fmt.Errorf("%w: rekey needs the new key", seal.ErrBadKey)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	lock, _, err := lockFile(path)
	if err != nil {
		return false, err
	}
	defer lock.Unlock()
	data, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("journal: read %s: %w", path, err)
	}
	if old.IsZero() {
		old = nw // a line that does not open with nw is then a wrong-key error
	}
	name := LineName(idOf(path))
	out, changed, err := transformLines(data, func(l []byte) ([]byte, error) { return resealLine(l, nw, old, name, name) })
	if err != nil {
		return false, fmt.Errorf("journal %s: wrong encryption key or damaged file: %w; %s", path, err, notChanged)
	}
	if !changed {
		return false, nil
	}
	return true, atomicfile.WriteFile(path, out)
}
