package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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

var errEmpty = errors.New("file is empty (0 bytes)")

// classify turns a Decode error for file path into an error wrapping
// ErrCorrupt or ErrTooNew, naming the file and, for syntax errors, the byte
// offset.
func classify(path string, err error) error {
	var tn errTooNew
	if errors.As(err, &tn) {
		return fmt.Errorf("%w: %s: %v; it was not changed (upgrade chatcli to open it)", ErrTooNew, path, tn)
	}
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, jsonscan.ErrSyntax):
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, strings.TrimPrefix(err.Error(), "jsonscan: "))
	case errors.As(err, &syn):
		return fmt.Errorf("%w: %s: invalid JSON at byte %d: %v", ErrCorrupt, path, syn.Offset, syn)
	case errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected end of JSON input":
		return fmt.Errorf("%w: %s: cut short (the JSON ends early)", ErrCorrupt, path)
	}
	return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
}
