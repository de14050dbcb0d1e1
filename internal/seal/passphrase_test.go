package seal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"testing"
)

func TestPassphraseKey(t *testing.T) {
	cheap := KDFParams{Time: 1, MemoryKiB: 64, Threads: 1}
	salt := bytes.Repeat([]byte{7}, PassphraseSaltBytes)
	a, err := PassphraseKey("hunter2 hunter2", salt, cheap)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := PassphraseKey("hunter2 hunter2", salt, cheap)
	if a.b != b.b || a.IsZero() {
		t.Fatal("the same passphrase and salt give two keys")
	}
	other, _ := PassphraseKey("hunter2 hunter2", bytes.Repeat([]byte{8}, PassphraseSaltBytes), cheap)
	harder, _ := PassphraseKey("hunter2 hunter2", salt, KDFParams{Time: 2, MemoryKiB: 64, Threads: 1})
	if other.b == a.b || harder.b == a.b {
		t.Fatal("another salt or other parameters give the same key")
	}
	env, _ := Seal(a, "n", []byte("x"))
	if _, err := Open(other, "n", env); !errors.Is(err, ErrWrongKey) {
		t.Errorf("opened with another salt's key: %v", err)
	}
	for _, tc := range []struct {
		pass string
		salt []byte
		p    KDFParams
	}{{" ", salt, cheap}, {"pw", salt[:8], cheap}, {"pw", salt, KDFParams{Time: 0, MemoryKiB: 64, Threads: 1}}, {"pw", salt, KDFParams{Time: 1, MemoryKiB: 4, Threads: 1}}} {
		if _, err := PassphraseKey(tc.pass, tc.salt, tc.p); !errors.Is(err, ErrBadKey) {
			t.Errorf("PassphraseKey(%q, %d-byte salt, %+v) = %v, want ErrBadKey", tc.pass, len(tc.salt), tc.p, err)
		}
	}
}

func TestIsKeyText(t *testing.T) {
	b64 := func(n int) string { return base64.StdEncoding.EncodeToString(counting(0x41, n)) }
	for s, want := range map[string]bool{b64(32): true, b64(32)[:43] + "\n": true, b64(31): false, "correct horse": false, "": false} {
		if got := IsKeyText(s); got != want {
			t.Errorf("IsKeyText(%q) = %v", s, got)
		}
	}
}
