package seal

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
)

// KeySizeBytes is the size of a master key.
const KeySizeBytes = 32

// Key is a parsed master key (32 bytes). The zero Key is not a key: Seal and
// Open refuse it, and IsZero reports it, so a Key field can mean
// "encryption off" when zero. Printing a Key with any fmt verb shows
// "seal.Key(redacted)", never the bytes.
type Key struct {
	b   [KeySizeBytes]byte
	set bool
}

// ParseKey parses CHATCLI_ENCRYPTION_KEY: standard base64 of exactly 32
// bytes, with or without "=" padding, surrounding whitespace and a trailing
// newline allowed, so `openssl rand -base64 32` output works as is. Errors
// are "seal: bad key: REASON", wrapping ErrBadKey, where REASON says why
// (empty, not base64, N bytes instead of 32, all zero) and how to make a
// key is left to the caller; they never contain the key.
func ParseKey(s string) (Key, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Key{}, fmt.Errorf("%w: empty", ErrBadKey)
	}
	raw, err := decodeKeyText(s)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return Key{}, fmt.Errorf("%w: not standard base64 (invalid at character %d of %d; a key is 44 characters)", ErrBadKey, int64(ce)+1, len(s))
		}
		return Key{}, fmt.Errorf("%w: not standard base64 (a key is 44 characters)", ErrBadKey)
	}
	defer clear(raw)
	if len(raw) != KeySizeBytes {
		return Key{}, fmt.Errorf("%w: decodes to %d bytes instead of %d", ErrBadKey, len(raw), KeySizeBytes)
	}
	var k Key
	copy(k.b[:], raw)
	if k.b == [KeySizeBytes]byte{} {
		return Key{}, fmt.Errorf("%w: all %d bytes are zero", ErrBadKey, KeySizeBytes)
	}
	k.set = true
	return k, nil
}

// decodeKeyText decodes standard base64 with or without padding.
func decodeKeyText(s string) ([]byte, error) {
	enc := base64.RawStdEncoding
	if strings.HasSuffix(s, "=") {
		enc = base64.StdEncoding
	}
	return enc.DecodeString(s)
}

// IsKeyText reports whether s, surrounding whitespace aside, is in the
// form ParseKey reads: standard base64 of KeySizeBytes bytes. Anything
// else set as CHATCLI_ENCRYPTION_KEY is a passphrase (PassphraseKey), as
// ChatCLI accepts any text there.
func IsKeyText(s string) bool {
	raw, err := decodeKeyText(strings.TrimSpace(s))
	defer clear(raw)
	return err == nil && len(raw) == KeySizeBytes
}

// IsZero reports whether k is the zero Key, which did not come from
// ParseKey and cannot seal or open anything.
func (k Key) IsZero() bool { return !k.set }

// Format implements fmt.Formatter so that no verb (%v, %#v, %x, %d, …) ever
// prints the key bytes.
func (k Key) Format(f fmt.State, verb rune) {
	if k.set {
		io.WriteString(f, "seal.Key(redacted)")
		return
	}
	io.WriteString(f, "seal.Key(zero)")
}

var errZeroKey = fmt.Errorf("%w: zero Key (not made by ParseKey)", ErrBadKey)
