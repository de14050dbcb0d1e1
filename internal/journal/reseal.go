// Re-sealing whole journals: migration to sealed lines, Fork and Rekey.

package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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

// run re-seals every non-empty line read from src (a last line without
// "\n" gets one) and writes it to w, a line at a time, so that its memory
// is a line whatever the journal's size. It returns whether any line
// changed and a warning for every damaged sealed line (kept or left out).
// Errors: src's or w's; a sealed line without old (ErrEncrypted); sealed
// lines none of which opens (wrapping seal.ErrWrongKey), found only at
// the end, after w got every line.
func (r *resealer) run(src io.Reader, w io.Writer) (changed bool, damaged []Warning, err error) {
	opened, failed := 0, 0
	var off int64
	br, bw := bufio.NewReaderSize(src, 64<<10), bufio.NewWriterSize(w, 64<<10)
	for n, rerr := 1, error(nil); rerr == nil; n++ {
		var line []byte
		if line, rerr = br.ReadSlice('\n'); rerr == bufio.ErrBufferFull { // a line longer than the buffer
			line = bytes.Clone(line)
			for rerr == bufio.ErrBufferFull {
				var more []byte
				more, rerr = br.ReadSlice('\n')
				line = append(line, more...)
			}
		}
		if rerr != nil && rerr != io.EOF {
			return false, nil, rerr
		}
		line, complete := bytes.CutSuffix(line, []byte("\n"))
		start := off
		off += int64(len(line) + 1)
		if len(line) == 0 {
			continue
		}
		nl, why, err := r.line(line)
		switch {
		case err != nil:
			return false, nil, err
		case why.IsZero():
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
		bw.Write(nl)
		if err := bw.WriteByte('\n'); err != nil {
			return false, nil, err
		}
	}
	if failed > 0 && opened == 0 {
		return false, nil, i18n.Errorf("journal %s: wrong encryption key or damaged file: %w; %s", r.path, seal.ErrWrongKey, notChanged)
	}
	return changed, damaged, bw.Flush()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// line returns line re-sealed, or why it is a damaged sealed line.
func (r *resealer) line(line []byte) ([]byte, i18n.Text, error) {
	pt := line
	if seal.IsSealedLine(line) {
		if r.from == r.to {
			if _, err := seal.OpenLine(r.k, r.to, line); err == nil {
				return line, i18n.Text{}, nil
			}
		}
		if r.old.IsZero() {
			return nil, reasonNoKey, nil
		}
		var err error
		if pt, err = seal.OpenLine(r.old, r.from, line); err != nil {
			return nil, sealedNotOpen(err), nil
		}
	}
	if r.k.IsZero() {
		return pt, i18n.Text{}, nil
	}
	sealed, err := seal.SealLine(r.k, r.to, pt)
	return sealed, i18n.Text{}, err
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
	var buf bytes.Buffer
	if _, _, err := r.run(bytes.NewReader(data), &buf); err != nil {
		return fmt.Errorf("journal: seal %s: %w", j.path, err)
	}
	out := buf.Bytes()
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
// opens with old or nw. The lines stream from the file to the new one, so
// its memory is a line whatever the journal's size. It reports whether the
// file changed (false when every line already opens with nw, or the file
// is missing) and the damaged sealed lines, those that open with neither
// key while others do: each is kept as it is (the reader skips it with a
// warning). When sealed lines exist and none opens, it fails wrapping
// seal.ErrWrongKey and the file is left unchanged.
func Rekey(path string, old, nw seal.Key) (changed bool, damaged []Warning, err error) {
	if nw.IsZero() {
		return false, nil, fmt.Errorf("%w: rekey needs the new key", seal.ErrBadKey)
	}
	if old.IsZero() {
		old = nw // a line that does not open with nw is then damaged, or a wrong key
	}
	name := LineName(idOf(path))
	r := &resealer{path: path, k: nw, old: old, from: name, to: name, keepDamaged: true}
	return rewriteLocked(path, r, nil)
}

// errUnchanged stops a rewrite that changed no line: the file is kept.
var errUnchanged = errors.New("journal: unchanged")

// rewriteLocked replaces the journal at path, under its lock, with its
// lines re-sealed by r as they stream from the file to the temporary one
// (atomicfile.WriteStatWith); with damaged lines, before (when set) gets
// the old file to read before it is replaced, and may stop the rewrite by
// its error. Nothing is
// replaced when no line changed or on any error. A missing journal is no
// error and not changed; for atomicfile.ErrNotDurable changed is true.
func rewriteLocked(path string, r *resealer, before func(f *os.File, size int64) error) (changed bool, damaged []Warning, err error) {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return false, nil, nil
	}
	lock, _, err := lockFile(path)
	if err != nil {
		return false, nil, err
	}
	defer lock.Unlock()
	f, st, err := storefile.Open(path)
	if err != nil {
		return false, nil, fmt.Errorf("journal: read %s: %w", path, err)
	}
	defer f.Close()
	var runErr error // said without the temporary file's name
	_, err = atomicfile.WriteStatWith(path, func(w io.Writer) error {
		if changed, damaged, runErr = r.run(storefile.Reader(f, st), w); runErr == nil && !changed {
			runErr = errUnchanged
		} else if runErr == nil && len(damaged) > 0 && before != nil {
			runErr = before(f, st.Size())
		}
		return runErr
	})
	switch {
	case runErr == errUnchanged:
		return false, damaged, nil
	case runErr != nil:
		return false, damaged, runErr
	}
	return err == nil || errors.Is(err, atomicfile.ErrNotDurable), damaged, err
}
