package config

import (
	"fmt"
	"os"
	"path/filepath"
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
// zero Key, encryption off). A value in the key form (seal.IsKeyText:
// base64 of 32 bytes) is the key; one that is all zero is refused as
// "invalid CHATCLI_ENCRYPTION_KEY: REASON; generate one with: openssl rand
// -base64 32", wrapping ErrConfig and seal.ErrBadKey, the key itself never
// printed. Any other value is a passphrase, as ChatCLI accepts: the key is
// derived with Argon2id and the store's salt file (keysalt.go). The old
// key is parsed later, by OldKey, so that only the rekey command depends
// on it. CHATCLI_HISTORY_PLAINTEXT (a boolean) is read here too.
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
	c.ChatCLIKey = chatcliKey(v, getenv)
	if v == "" {
		return nil
	}
	k, err := c.keyFrom(EnvEncryptionKey, v)
	if err != nil {
		return err
	}
	c.EncryptionKey, c.Passphrase = k, !seal.IsKeyText(v)
	return nil
}

// OldKey parses CHATCLI_ENCRYPTION_KEY_OLD as readKeys parses the key (a
// passphrase included): the zero Key when unset, an error wrapping
// ErrConfig when it cannot be used.
func (c Config) OldKey() (seal.Key, error) {
	if c.oldKey == "" {
		return seal.Key{}, nil
	}
	return c.keyFrom(EnvEncryptionKeyOld, c.oldKey)
}

// keyFrom reads the value v of variable name: a key, or a passphrase.
func (c Config) keyFrom(name, v string) (seal.Key, error) {
	if !seal.IsKeyText(v) {
		return passphraseKey(c.Home, name, v)
	}
	k, err := seal.ParseKey(v)
	if err != nil {
		return seal.Key{}, &keyError{name: name, err: err}
	}
	return k, nil
}

// chatcliKey is the key ChatCLI would seal its session files with
// (diillson/chatcli cli/session_encryption.go, loadMasterKey): from the
// text of CHATCLI_ENCRYPTION_KEY when set, else from the bytes of
// ~/.chatcli/.auth-key (HOME from getenv, else os.UserHomeDir) when it
// holds at least 16 bytes, as ChatCLI requires; the zero key otherwise.
func chatcliKey(v string, getenv func(string) string) seal.ChatCLIKey {
	if v != "" {
		return seal.ChatCLIKeyFrom([]byte(v))
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	secret, err := os.ReadFile(filepath.Join(home, ".chatcli", ".auth-key"))
	defer clear(secret)
	if err != nil || len(secret) < 16 {
		return seal.ChatCLIKey{}
	}
	return seal.ChatCLIKeyFrom(secret)
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
