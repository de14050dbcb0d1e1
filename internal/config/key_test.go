package config

import (
	"errors"
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
		"not*base64!": "invalid CHATCLI_ENCRYPTION_KEY: not standard base64 (invalid at character 4 of 11; a key is 44 characters); generate one with: openssl rand -base64 32",
		"AAEC":        "invalid CHATCLI_ENCRYPTION_KEY: decodes to 3 bytes instead of 32; generate one with: openssl rand -base64 32",
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=": "invalid CHATCLI_ENCRYPTION_KEY: all 32 bytes are zero; generate one with: openssl rand -base64 32",
	} {
		_, err := FromEnv(env(map[string]string{EnvEncryptionKey: v}))
		if !errors.Is(err, ErrConfig) || !errors.Is(err, seal.ErrBadKey) || err.Error() != why {
			t.Errorf("%q: %v", v, err)
		}
	}
	// The old key is checked only when asked for.
	c, err = FromEnv(env(map[string]string{EnvEncryptionKeyOld: "AAEC"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OldKey(); !errors.Is(err, ErrConfig) || !errors.Is(err, seal.ErrBadKey) ||
		err.Error() != "invalid CHATCLI_ENCRYPTION_KEY_OLD: decodes to 3 bytes instead of 32; generate one with: openssl rand -base64 32" {
		t.Fatalf("old key: %v", err)
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
