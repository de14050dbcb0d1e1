package seal

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func TestParseKeyAccepts(t *testing.T) {
	raw := counting(0xA0, 32)
	padded := base64.StdEncoding.EncodeToString(raw)
	if len(padded) != 44 || !strings.HasSuffix(padded, "=") {
		t.Fatalf("test setup: %d chars", len(padded))
	}
	for name, in := range map[string]string{
		"openssl output":     padded + "\n",
		"padded":             padded,
		"unpadded":           base64.RawStdEncoding.EncodeToString(raw),
		"unpadded+newline":   base64.RawStdEncoding.EncodeToString(raw) + "\n",
		"surrounding spaces": " \t" + padded + " \r\n",
	} {
		t.Run(name, func(t *testing.T) {
			k, err := ParseKey(in)
			if err != nil {
				t.Fatalf("ParseKey(%q): %v", in, err)
			}
			if k.IsZero() || string(k.b[:]) != string(raw) {
				t.Fatal("parsed key differs from its bytes")
			}
		})
	}
}

func TestParseKeyRejects(t *testing.T) {
	b64 := func(n int) string { return base64.StdEncoding.EncodeToString(counting(0x41, n)) }
	tests := []struct{ name, in, want string }{
		{"empty", "", "empty"},
		{"blank", " \n", "empty"},
		{"not base64", "this is not a key!!", "not standard base64"},
		{"url-safe alphabet", strings.Repeat("-_", 22), "not standard base64"},
		{"bad padding", b64(32)[:43] + "==", "not standard base64"},
		{"16 bytes", b64(16), "decodes to 16 bytes instead of 32"},
		{"31 bytes", b64(31), "decodes to 31 bytes instead of 32"},
		{"33 bytes", b64(33), "decodes to 33 bytes instead of 32"},
		{"64 bytes", b64(64), "decodes to 64 bytes instead of 32"},
		{"all zero", base64.StdEncoding.EncodeToString(make([]byte, 32)), "all 32 bytes are zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ParseKey(tt.in)
			if !errors.Is(err, ErrBadKey) {
				t.Fatalf("ParseKey(%q) = %v, want ErrBadKey", tt.in, err)
			}
			if !k.IsZero() {
				t.Error("a rejected key is not the zero Key")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q does not say %q", msg, tt.want)
			}
			if in := strings.TrimSpace(tt.in); len(in) >= 8 {
				for i := 0; i+8 <= len(in); i++ {
					if strings.Contains(msg, in[i:i+8]) {
						t.Fatalf("error %q contains key material %q", msg, in[i:i+8])
					}
				}
			}
		})
	}
}

func TestKeyNeverPrinted(t *testing.T) {
	k := keyOf(t, 0x61) // bytes "abcdefgh…"
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
		out := fmt.Sprintf(verb, k)
		if !strings.Contains(out, "seal.Key(redacted)") || strings.Contains(out, "abc") ||
			strings.Contains(out, "616263") || strings.Contains(out, "97") {
			t.Errorf("Sprintf(%q) = %q", verb, out)
		}
	}
	if got := fmt.Sprint(Key{}); got != "seal.Key(zero)" {
		t.Errorf("zero Key prints %q", got)
	}
}

func TestZeroKeyRefused(t *testing.T) {
	var zero Key
	if !zero.IsZero() {
		t.Fatal("Key{} is not zero")
	}
	if _, err := Seal(zero, "s", []byte("x")); !errors.Is(err, ErrBadKey) {
		t.Errorf("Seal with zero Key: %v", err)
	}
	env := mustSeal(t, keyOf(t, 1), "s", []byte("x"))
	if _, err := Open(zero, "s", env); !errors.Is(err, ErrBadKey) {
		t.Errorf("Open with zero Key: %v", err)
	}
	line, _ := SealLine(keyOf(t, 1), "s", []byte("x"))
	if _, err := OpenLine(zero, "s", line); !errors.Is(err, ErrBadKey) {
		t.Errorf("OpenLine with zero Key: %v", err)
	}
	if _, err := SealLine(zero, "s", []byte("x")); !errors.Is(err, ErrBadKey) {
		t.Errorf("SealLine with zero Key: %v", err)
	}
}

// The real thing, when openssl is installed.
func TestParseKeyOpenSSLOutput(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl not installed")
	}
	out, err := exec.Command("openssl", "rand", "-base64", "32").Output()
	if err != nil {
		t.Skipf("openssl rand: %v", err)
	}
	if _, err := ParseKey(string(out)); err != nil {
		t.Fatalf("ParseKey(openssl rand -base64 32 output): %v", err)
	}
}
