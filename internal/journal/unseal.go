package journal

import (
	"fmt"
	"os"

	"github.com/chatcli/chatcli/internal/seal"
)

// Decrypt writes the journal at path back as plaintext: every sealed line
// opened with key, in one atomic replacement under the journal's lock, so
// at every moment the file is either as it was or wholly plaintext; the
// lines stream from one file to the other (rewriteLocked). It
// reports whether the file changed (false when it holds no sealed line or
// is missing). Sealed lines that do not open with key while others do
// (torn by a crash, damaged) cannot be written as plaintext and would make
// the file unreadable without the key: they are left out, after the whole
// file as it was has been copied to <path>.broken (keepBroken: evidence is
// never destroyed); they come back as the returned warnings. Errors: the
// zero key (wrapping seal.ErrBadKey); sealed lines none of which opens
// (wrapping seal.ErrWrongKey), the file untouched; the copy or the write
// failing (for atomicfile.ErrNotDurable, changed is true: it is written).
func Decrypt(path string, key seal.Key) (changed bool, dropped []Warning, err error) {
	if key.IsZero() {
		return false, nil, fmt.Errorf("%w: decrypting needs the key", seal.ErrBadKey)
	}
	name := LineName(idOf(path))
	r := &resealer{path: path, old: key, from: name, to: name}
	return rewriteLocked(path, r, func(old *os.File, size int64) error {
		_, err := keepBroken(path, old, size)
		return err
	})
}
