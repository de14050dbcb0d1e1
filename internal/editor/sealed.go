package editor

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/seal"
)

// ErrSealedHistory reports a history file holding sealed lines while no
// key is given (CHATCLI_ENCRYPTION_KEY unset): it cannot be read, and it is
// never rewritten.
var ErrSealedHistory = errors.New("editor: the history file is encrypted: set CHATCLI_ENCRYPTION_KEY")

// historySealName is what every sealed history line is sealed for.
const historySealName = "history"

// lineCodec turns entries into lines of the history file and back (see
// doc.go, "Encryption"): the one-line form of an entry, sealed as a line
// (seal.SealLine) when key is set and plaintext is not.
type lineCodec struct {
	key       seal.Key
	plaintext bool
}

// seals reports whether the lines it writes are sealed.
func (c lineCodec) seals() bool { return !c.key.IsZero() && !c.plaintext }

// encode returns the line of entry, without its "\n".
func (c lineCodec) encode(entry string) ([]byte, error) {
	line := []byte(encodeEntry(entry))
	if !c.seals() {
		return line, nil
	}
	return seal.SealLine(c.key, historySealName, line)
}

// decode returns the entry of a line of the file at path (number n, for
// errors) and whether the line was written in another form than this
// codec writes (so the file is rewritten).
func (c lineCodec) decode(path string, n int, raw []byte) (entry string, stale bool, err error) {
	sealed := seal.IsSealedLine(raw)
	if sealed {
		if c.key.IsZero() {
			return "", false, fmt.Errorf("%w (%s)", ErrSealedHistory, path)
		}
		if raw, err = seal.OpenLine(c.key, historySealName, raw); err != nil {
			return "", false, fmt.Errorf("editor: history file %s: line %d: %w", path, n, err)
		}
	}
	if bytes.IndexByte(raw, 0) >= 0 || !utf8.Valid(raw) {
		return "", false, fmt.Errorf("%w %s: line %d is not UTF-8 text", ErrCorruptHistory, path, n)
	}
	line := string(bytes.TrimSuffix(raw, []byte("\r")))
	return decodeEntry(line), sealed != c.seals(), nil
}

// RekeyHistory rewrites the history file at path with every line sealed
// under nw (`chatcli storage rekey`), opening its lines with nw or else
// old (the zero Key for none); plaintext lines are sealed too. It reports
// whether the file changed; a missing file is unchanged. The file is
// replaced atomically. Errors name the file; a line that opens with
// neither key wraps seal.ErrWrongKey and nothing is written.
func RekeyHistory(path string, old, nw seal.Key) (bool, error) {
	fresh := lineCodec{key: nw}
	entries, stale, err := readHistoryFile(path, fresh)
	if errors.Is(err, seal.ErrWrongKey) && !old.IsZero() {
		entries, _, err = readHistoryFile(path, lineCodec{key: old})
		stale = true
	}
	if err != nil || !stale {
		return false, err
	}
	return true, rewriteHistoryFile(path, entries, fresh)
}

// DecryptHistory rewrites the history file at path in plaintext (`chatcli
// storage decrypt`), opening its sealed lines with key. It reports whether
// the file changed; a missing file or one without a sealed line is
// unchanged. The file is replaced atomically. Errors name the file; a line
// that does not open with key wraps seal.ErrWrongKey and nothing is
// written.
func DecryptHistory(path string, key seal.Key) (bool, error) {
	entries, sealed, err := readHistoryFile(path, lineCodec{key: key, plaintext: true})
	if err != nil || !sealed {
		return false, err
	}
	return true, rewriteHistoryFile(path, entries, lineCodec{})
}
