package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/jsonscan"
)

// Sentinel errors of the store, matched with errors.Is. Every returned error
// wraps one of them and names the session or file involved.
var (
	ErrNotFound = errors.New("session: not found")
	ErrExists   = errors.New("session: already exists")
	ErrCorrupt  = errors.New("session: unreadable file")
	ErrTooNew   = errors.New("session: format too new")
)

var errEmpty = i18n.Errorf("file is empty (0 bytes)")

// classify turns a Decode error for file path into an error wrapping
// ErrCorrupt or ErrTooNew, naming the file and, for syntax errors, the byte
// offset. An unreadable session file's error also says what to do.
func classify(path string, err error) error {
	var tn errTooNew
	if errors.As(err, &tn) {
		return i18n.Errorf("%w: %s: %v; it was not changed (upgrade chatcli to open it)", ErrTooNew, path, tn)
	}
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, jsonscan.ErrSyntax):
		return i18n.Errorf("%w: %s: %v%s", ErrCorrupt, path, unprefixed{err}, recoverHint(path))
	case errors.As(err, &syn):
		return i18n.Errorf("%w: %s: invalid JSON at byte %d: %v%s", ErrCorrupt, path, syn.Offset, syn, recoverHint(path))
	case errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected end of JSON input":
		return i18n.Errorf("%w: %s: cut short (the JSON ends early)%s", ErrCorrupt, path, recoverHint(path))
	}
	return i18n.Errorf("%w: %s: %v%s", ErrCorrupt, path, err, recoverHint(path))
}

// unprefixed is a jsonscan error said without the package's name
// ("invalid JSON: want an object at byte 0"); an i18n.Printer says it as
// the jsonscan error it is.
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), "jsonscan: ") }

// Said implements i18n.Sayer.
func (u unprefixed) Said() error { return u.err }

// classifyRead is classify for DecodeReader's errors on file p: what the
// reader failed to read is an I/O error naming p, never a corrupt file.
func classifyRead(p string, err error) error {
	var tn errTooNew
	if errors.Is(err, jsonscan.ErrSyntax) || errors.Is(err, errFormat) || errors.Is(err, errEmpty) || errors.As(err, &tn) {
		return classify(p, err)
	}
	return fmt.Errorf("session: read %s: %w", p, err)
}

// recoverHint is what to do about an unreadable file at path: for a file
// of the sessions folder, move it aside (it is never changed by chatcli)
// and bring back a trashed copy; "" for a file in the trash or a legacy
// file (LegacyFileName), which have no such remedy.
func recoverHint(path string) i18n.Text {
	base := filepath.Base(path)
	if strings.HasPrefix(base, ".") || filepath.Base(filepath.Dir(path)) == TrashDirName || !strings.HasSuffix(base, fileExt) {
		return i18n.Textf("")
	}
	name := strings.TrimSuffix(base, fileExt)
	return i18n.Textf("; move it aside, then `chatcli session restore %s` brings back a copy from the trash if there is one", name)
}
