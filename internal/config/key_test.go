package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

func TestEncryptionKey(t *testing.T) {
	env := func(m map[string]string) func(string) string {
		return func(k string) string {
			if k == "CHATCLI_HOME" {
				return t.TempDir()
			}
			return m[k]
		}
	}
	good := "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=" // 32 bytes of 0x01
	c, err := FromEnv(env(map[string]string{EnvEncryptionKey: good + "\n"}))
	if err != nil || c.EncryptionKey.IsZero() {
		t.Fatalf("good key: %v", err)
	}
	if c, err := FromEnv(env(nil)); err != nil || !c.EncryptionKey.IsZero() || keySetting(c) != "not set (files are plaintext) default" {
		t.Fatalf("unset: %v %q", err, keySetting(c))
	}
	if got := keySetting(c); got != "set (sessions and journals are sealed) environment" || strings.Contains(got, good) {
		t.Fatalf("/config shows %q", got)
	}
	for v, why := range map[string]string{
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=": "invalid CHATCLI_ENCRYPTION_KEY: all 32 bytes are zero; generate one with: openssl rand -base64 32",
	} {
		_, err := FromEnv(env(map[string]string{EnvEncryptionKey: v}))
		if !errors.Is(err, ErrConfig) || !errors.Is(err, seal.ErrBadKey) || err.Error() != why {
			t.Errorf("%q: %v", v, err)
		}
	}
	// The old key is checked only when asked for.
	c, err = FromEnv(env(map[string]string{EnvEncryptionKeyOld: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OldKey(); !errors.Is(err, ErrConfig) || !errors.Is(err, seal.ErrBadKey) ||
		err.Error() != "invalid CHATCLI_ENCRYPTION_KEY_OLD: all 32 bytes are zero; generate one with: openssl rand -base64 32" {
		t.Fatalf("old key: %v", err)
	}
}

// cheapKDF makes new salt files with cheap Argon2id parameters for the
// test's duration.
func cheapKDF(t *testing.T) {
	old := newKDF
	newKDF = seal.KDFParams{Time: 1, MemoryKiB: 64, Threads: 1}
	t.Cleanup(func() { newKDF = old })
}

// A value that is not a key is a passphrase: the key comes from Argon2id
// with the store's salt, made once and kept; the same passphrase gives
// the same key in that store, another store's salt another key.
func TestPassphraseKey(t *testing.T) {
	cheapKDF(t)
	home := t.TempDir()
	load := func(home, pass string) Config {
		t.Helper()
		c, err := FromEnv(func(k string) string {
			return map[string]string{"CHATCLI_HOME": home, EnvEncryptionKey: pass}[k]
		})
		if err != nil {
			t.Fatalf("%q: %v", pass, err)
		}
		return c
	}
	c := load(home, "correct horse battery staple")
	if c.EncryptionKey.IsZero() || !c.Passphrase || !strings.Contains(keySetting(c), "a passphrase (Argon2id") {
		t.Fatalf("passphrase not taken: %q", keySetting(c))
	}
	salt, err := os.ReadFile(filepath.Join(home, KeySaltFileName))
	if err != nil || !strings.Contains(string(salt), `"kdf":"argon2id"`) {
		t.Fatalf("salt file: %v %s", err, salt)
	}
	sealed, err := seal.Seal(c.EncryptionKey, "s", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seal.Open(load(home, "correct horse battery staple").EncryptionKey, "s", sealed); err != nil {
		t.Errorf("the same passphrase does not open it again: %v", err)
	}
	if _, err := seal.Open(load(home, "correct horse battery stapler").EncryptionKey, "s", sealed); !errors.Is(err, seal.ErrWrongKey) {
		t.Errorf("another passphrase: %v", err)
	}
	if _, err := seal.Open(load(t.TempDir(), "correct horse battery staple").EncryptionKey, "s", sealed); !errors.Is(err, seal.ErrWrongKey) {
		t.Errorf("another store's salt: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(home, KeySaltFileName)); string(after) != string(salt) {
		t.Error("the salt file changed")
	}
	// A damaged salt file is refused by name and left alone.
	os.WriteFile(filepath.Join(home, KeySaltFileName), []byte("{"), 0o600)
	_, err = FromEnv(func(k string) string {
		return map[string]string{"CHATCLI_HOME": home, EnvEncryptionKey: "pw"}[k]
	})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), filepath.Join(home, KeySaltFileName)) {
		t.Errorf("damaged salt: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(home, KeySaltFileName)); string(after) != "{" {
		t.Error("the damaged salt file was rewritten")
	}
}

// keySetting is the value and source /config shows for the key.
func keySetting(c Config) string {
	for _, s := range c.SessionSettings() {
		if s.Name == EnvEncryptionKey {
			return s.Value + " " + s.Source
		}
	}
	return "missing"
}
