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
	if c, err := FromEnv(env(nil)); err != nil || !c.EncryptionKey.IsZero() {
		t.Fatalf("unset: %v", err)
	}
	for v, why := range map[string]string{"not*base64!": "not standard base64", "AAEC": "decodes to 3 bytes instead of 32"} {
		_, err := FromEnv(env(map[string]string{EnvEncryptionKey: v}))
		if !errors.Is(err, ErrConfig) || !errors.Is(err, seal.ErrBadKey) || !strings.Contains(err.Error(), why) ||
			!strings.Contains(err.Error(), EnvEncryptionKey) || strings.Contains(err.Error(), v) {
			t.Errorf("%q: %v", v, err)
		}
	}
	// The old key is checked only when asked for.
	c, err = FromEnv(env(map[string]string{EnvEncryptionKeyOld: "AAEC"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.OldKey(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), EnvEncryptionKeyOld) {
		t.Fatalf("old key: %v", err)
	}
}
