package seal

import (
	"bytes"
	"encoding/base64"
	"errors"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Line form (see doc.go): linePrefix, "v1:", base64 of the envelope.
const (
	linePrefix   = "chatcli-sealed:"
	lineV1Prefix = linePrefix + "v1:"
)

var lineEncoding = base64.StdEncoding.Strict()

// IsSealedLine reports whether line is a sealed line (starts with
// "chatcli-sealed:"). Plain journal lines start with "{".
func IsSealedLine(line []byte) bool { return bytes.HasPrefix(line, []byte(linePrefix)) }

// SealLine seals one journal record (without its "\n") for name, normally
// "journal:<id>", and returns a single line of ASCII text without "\n":
// "chatcli-sealed:v1:" followed by the standard base64 of the envelope
// Seal makes.
func SealLine(k Key, name string, line []byte) ([]byte, error) {
	env, err := Seal(k, name, line)
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(lineV1Prefix)+lineEncoding.EncodedLen(len(env)))
	copy(out, lineV1Prefix)
	lineEncoding.Encode(out[len(lineV1Prefix):], env)
	return out, nil
}

// OpenLine opens a line made by SealLine for name (a trailing "\n" or
// "\r\n" is ignored) and returns the record. Errors wrap the same sentinels
// as Open; a line that is not canonical base64 wraps ErrCorrupt. line is not
// modified.
func OpenLine(k Key, name string, line []byte) ([]byte, error) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	if !IsSealedLine(line) {
		return nil, ErrNotSealed
	}
	if !bytes.HasPrefix(line, []byte(lineV1Prefix)) {
		return nil, lineVersionError(line[len(linePrefix):])
	}
	payload := line[len(lineV1Prefix):]
	if bytes.ContainsAny(payload, "\r\n") {
		return nil, i18n.Errorf("%w: line break inside a sealed line", ErrCorrupt)
	}
	env := make([]byte, lineEncoding.DecodedLen(len(payload)))
	n, err := lineEncoding.Decode(env, payload)
	if err != nil {
		return nil, i18n.Errorf("%w: sealed line is not base64: %v", ErrCorrupt, err)
	}
	env = env[:n]
	if err := checkEnvelope(k, env); err != nil {
		if errors.Is(err, ErrNotSealed) {
			return nil, i18n.Errorf("%w: sealed line holds no envelope", ErrCorrupt)
		}
		return nil, err
	}
	return open(k, name, env, env[headerSize:headerSize])
}

// lineVersionError classifies what follows "chatcli-sealed:" when it is not
// "v1:": "v<N>:" with N > 1 is too new, anything else is corrupt.
func lineVersionError(rest []byte) error {
	v, _, ok := bytes.Cut(rest, []byte(":"))
	if ok && len(v) >= 2 && len(v) <= 10 && v[0] == 'v' && v[1] != '0' && allDigits(v[1:]) {
		return i18n.Errorf("%w: sealed line version %s, this build reads v1", ErrTooNew, string(v))
	}
	return i18n.Errorf("%w: malformed sealed-line prefix", ErrCorrupt)
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
