package seal

import (
	"bytes"
	"errors"
	"testing"
)

func TestLineRoundTrip(t *testing.T) {
	k := keyOf(t, 1)
	for _, rec := range []string{"", "x", `{"type":"message","message":{"role":"user","content":"a\nb"}}`, "raw\nnewline\r\n"} {
		line, err := SealLine(k, "journal:abc", []byte(rec))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(line, "\r\n") || !bytes.HasPrefix(line, []byte("chatcli-sealed:v1:")) || !IsSealedLine(line) {
			t.Fatalf("bad line %q", line)
		}
		for _, suffix := range []string{"", "\n", "\r\n"} {
			got, err := OpenLine(k, "journal:abc", append(bytes.Clone(line), suffix...))
			if err != nil || string(got) != rec {
				t.Fatalf("OpenLine(+%q) = %q, %v; want %q", suffix, got, err, rec)
			}
		}
	}
}

func TestIsSealedLine(t *testing.T) {
	for _, plain := range []string{"", "{", `{"type":"message"}`, "chatcli-sealed", "\x00\x00"} {
		if IsSealedLine([]byte(plain)) {
			t.Errorf("IsSealedLine(%q) = true", plain)
		}
		if _, err := OpenLine(keyOf(t, 1), "j", []byte(plain)); !errors.Is(err, ErrNotSealed) {
			t.Errorf("OpenLine(%q): %v", plain, err)
		}
	}
}

func TestLineErrors(t *testing.T) {
	k := keyOf(t, 1)
	line, _ := SealLine(k, "journal:a", []byte("rec"))
	payload := string(line[len(lineV1Prefix):])
	tests := []struct {
		name, in string
		want     error
	}{
		{"other journal", string(line), ErrWrongKey},
		{"v2", "chatcli-sealed:v2:" + payload, ErrTooNew},
		{"v10", "chatcli-sealed:v10:AAAA", ErrTooNew},
		{"v0", "chatcli-sealed:v0:" + payload, ErrCorrupt},
		{"v01", "chatcli-sealed:v01:" + payload, ErrCorrupt},
		{"no version", "chatcli-sealed:" + payload, ErrCorrupt},
		{"not base64", "chatcli-sealed:v1:!!!!", ErrCorrupt},
		{"unpadded", "chatcli-sealed:v1:" + payload[:len(payload)-1], ErrCorrupt},
		{"embedded newline", "chatcli-sealed:v1:" + payload[:8] + "\n" + payload[8:], ErrCorrupt},
		{"short", "chatcli-sealed:v1:AAAA", ErrCorrupt},
		{"empty payload", "chatcli-sealed:v1:", ErrCorrupt},
	}
	for _, tt := range tests {
		if _, err := OpenLine(k, "journal:b", []byte(tt.in)); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestLineEveryBitFlipFails(t *testing.T) {
	k := keyOf(t, 1)
	line, _ := SealLine(k, "journal:a", []byte(`{"type":"message"}`))
	for bit := range len(line) * 8 {
		bad := flipBit(line, bit)
		got, err := OpenLine(k, "journal:a", bad)
		if err == nil {
			t.Fatalf("bit %d flipped: opened to %q", bit, got)
		}
		if s := sentinel(err); s == nil || s == ErrBadKey {
			t.Fatalf("bit %d flipped: unclassified error %v", bit, err)
		}
	}
}

func TestLineTruncatedAtEveryLength(t *testing.T) {
	k := keyOf(t, 1)
	line, _ := SealLine(k, "journal:a", []byte("rec"))
	for n := range len(line) {
		if _, err := OpenLine(k, "journal:a", line[:n]); err == nil || sentinel(err) == nil {
			t.Fatalf("cut to %d bytes: %v", n, err)
		}
	}
}

func TestOpenLineKeepsInput(t *testing.T) {
	k := keyOf(t, 1)
	line, _ := SealLine(k, "journal:a", []byte("rec"))
	orig := bytes.Clone(line)
	if _, err := OpenLine(k, "journal:a", line); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(line, orig) {
		t.Fatal("OpenLine modified its input")
	}
}
