// Re-sealing whole journals: migration to sealed lines, Fork and Rekey.

package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// resealer re-seals the lines of one journal file under key k for name
// to. A sealed line opens with k under to (kept as it is when from is to)
// or with old under from; plaintext lines are sealed as they are. It
// follows the reader's rule (lineOpener): a sealed line that opens with
// neither key is damaged, and only when complete sealed lines exist and
// none of them opens is it a wrong key.
type resealer struct {
	path     string
	k, old   seal.Key
	from, to string
	// keepDamaged keeps a damaged line verbatim (Rekey, migration);
	// otherwise it is left out (Fork).
	keepDamaged bool
}

// run re-seals every non-empty line of data (a last line without "\n"
// gets one). It returns the new data, whether any line changed, and a
// warning for every damaged sealed line (kept or left out). Errors: a
// sealed line without old (ErrEncrypted); sealed lines none of which opens
// (wrapping seal.ErrWrongKey).
func (r *resealer) run(data []byte) (out []byte, changed bool, damaged []Warning, err error) {
	opened, failed := 0, 0
	var off int64
	for n := 1; len(data) > 0; n++ {
		line, rest, complete := bytes.Cut(data, []byte("\n"))
		start := off
		off += int64(len(line) + 1)
		data = rest
		if len(line) == 0 {
			continue
		}
		nl, why, err := r.line(line)
		switch {
		case err != nil:
			return nil, false, nil, err
		case why == "":
			opened += btoi(seal.IsSealedLine(line))
		default:
			failed += btoi(complete)
			damaged = append(damaged, Warning{Path: r.path, Line: n, Offset: start, Reason: why})
			if nl = line; !r.keepDamaged {
				changed = true
				continue
			}
		}
		changed = changed || !bytes.Equal(nl, line)
		out = append(append(out, nl...), '\n')
	}
	if failed > 0 && opened == 0 {
		return nil, false, nil, i18n.Errorf("journal %s: wrong encryption key or damaged file: %w; %s", r.path, seal.ErrWrongKey, notChanged)
	}
	return out, changed, damaged, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// line returns line re-sealed, or why it is a damaged sealed line.
func (r *resealer) line(line []byte) ([]byte, string, error) {
	pt := line
	if seal.IsSealedLine(line) {
		if r.from == r.to {
			if _, err := seal.OpenLine(r.k, r.to, line); err == nil {
				return line, "", nil
			}
		}
		if r.old.IsZero() {
			return nil, reasonNoKey, nil
		}
		var err error
		if pt, err = seal.OpenLine(r.old, r.from, line); err != nil {
			return nil, "sealed line does not open: " + err.Error(), nil
		}
	}
	if r.k.IsZero() {
		return pt, "", nil
	}
	sealed, err := seal.SealLine(r.k, r.to, pt)
	return sealed, "", err
}

// sealPlainLines replaces the journal with every line sealed followed by
// recs, in one atomic replacement; the caller holds the lock and has read
// the file to its end. Used when a journal with plaintext lines is
// appended to with a key; damaged sealed lines are kept as they are. The
// lock then holds the old inode, so the next Sync reads the new file from
// the top (j.file is nil).
func (j *Journal) sealPlainLines(recs []Record) error {
	data, err := storefile.ReadFile(j.path)
	if err != nil {
		return fmt.Errorf("journal: read %s: %w", j.path, err)
	}
	name := LineName(j.id)
	r := &resealer{path: j.path, k: j.key, old: j.key, from: name, to: name, keepDamaged: true}
	out, _, _, err := r.run(data)
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
	err = atomicfile.WriteFile(j.path, out)
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return err
	}
	j.pos.Offset, j.plain, j.file = int64(len(out)), 0, nil // replaced, durably or not
	j.pos.Line = bytes.Count(out, []byte("\n")) + 1
	j.pos.Seq += int64(len(recs))
	return err
}

// Rekey re-seals every line of the journal at path under key nw, opening
// sealed lines with nw or else old, and sealing plaintext lines, in one
// atomic replacement under the journal's lock: at every moment each line
// opens with old or nw. It reports whether the file changed (false when
// every line already opens with nw, or the file is missing) and the
// damaged sealed lines, those that open with neither key while others
// do: each is kept as it is (the reader skips it with a warning). When
// sealed lines exist and none opens, it fails wrapping seal.ErrWrongKey
// and the file is left unchanged.
func Rekey(path string, old, nw seal.Key) (changed bool, damaged []Warning, err error) {
	if nw.IsZero() {
		return false, nil, fmt.Errorf("%w: rekey needs the new key", seal.ErrBadKey)
	}
	data, unlock, err := readLocked(path)
	if data == nil || err != nil {
		return false, nil, err
	}
	defer unlock()
	if old.IsZero() {
		old = nw // a line that does not open with nw is then damaged, or a wrong key
	}
	name := LineName(idOf(path))
	r := &resealer{path: path, k: nw, old: old, from: name, to: name, keepDamaged: true}
	out, changed, damaged, err := r.run(data)
	if err != nil || !changed {
		return false, damaged, err
	}
	return true, damaged, atomicfile.WriteFile(path, out)
}

// readLocked takes the lock of the journal at path and reads it whole;
// unlock releases the lock. A missing journal gives nil data and no error
// (and nothing to unlock).
func readLocked(path string) (data []byte, unlock func(), err error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	lock, _, err := lockFile(path)
	if err != nil {
		return nil, nil, err
	}
	data, err = storefile.ReadFile(path)
	if err != nil {
		lock.Unlock()
		return nil, nil, fmt.Errorf("journal: read %s: %w", path, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, func() { lock.Unlock() }, nil
}
