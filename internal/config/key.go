package config

import (
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/seal"
)

// Encryption-at-rest settings: the master key (base64 of 32 bytes, as
// printed by `openssl rand -base64 32`; see package seal) and, for
// `chatcli storage rekey` only, the key being replaced.
const (
	EnvEncryptionKey    = "CHATCLI_ENCRYPTION_KEY"
	EnvEncryptionKeyOld = "CHATCLI_ENCRYPTION_KEY_OLD"
	// EnvHistoryPlaintext keeps the input history in plaintext when a key
	// is set (for shell-like recall by tools without the key).
	EnvHistoryPlaintext = "CHATCLI_HISTORY_PLAINTEXT"
)

// readKeys parses CHATCLI_ENCRYPTION_KEY into c.EncryptionKey (unset: the
// zero Key, encryption off). A malformed key is refused with the reason
// (not base64, not 32 bytes, all zero) in one line, "invalid
// CHATCLI_ENCRYPTION_KEY: REASON; generate one with: openssl rand -base64
// 32", wrapping ErrConfig and seal.ErrBadKey; the key itself is never
// printed. CHATCLI_HISTORY_PLAINTEXT (a boolean) is read here too. The old key is parsed
// later, by OldKey, so that only the rekey command depends on it.
func (c *Config) readKeys(getenv func(string) string) error {
	c.oldKey = getenv(EnvEncryptionKeyOld)
	if v := getenv(EnvHistoryPlaintext); v != "" {
		b, err := ParseBool(v)
		if err != nil {
			return fmt.Errorf("%w: %s=%q: %v", ErrConfig, EnvHistoryPlaintext, v, err)
		}
		c.HistoryPlaintext = b
	}
	v := getenv(EnvEncryptionKey)
	if v == "" {
		return nil
	}
	k, err := seal.ParseKey(v)
	if err != nil {
		return &keyError{name: EnvEncryptionKey, err: err}
	}
	c.EncryptionKey = k
	return nil
}

// OldKey parses CHATCLI_ENCRYPTION_KEY_OLD: the zero Key when unset, an
// error wrapping ErrConfig and seal.ErrBadKey when malformed (worded as
// readKeys words it).
func (c Config) OldKey() (seal.Key, error) {
	if c.oldKey == "" {
		return seal.Key{}, nil
	}
	k, err := seal.ParseKey(c.oldKey)
	if err != nil {
		return seal.Key{}, &keyError{name: EnvEncryptionKeyOld, err: err}
	}
	return k, nil
}

// keyError is a malformed key setting: one line naming the variable, the
// reason seal.ParseKey gave and how to make a key. It wraps ErrConfig and
// the seal.ErrBadKey error.
type keyError struct {
	name string // the environment variable
	err  error  // from seal.ParseKey
}

func (e *keyError) Error() string {
	reason := strings.TrimPrefix(e.err.Error(), seal.ErrBadKey.Error()+": ")
	return "invalid " + e.name + ": " + reason + "; generate one with: openssl rand -base64 32"
}

func (e *keyError) Unwrap() []error { return []error{ErrConfig, e.err} }
