package seal

import (
	"bytes"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"testing"
)

func TestMACIsKeyedAndLabelled(t *testing.T) {
	k1, k2 := keyOf(t, 1), keyOf(t, 2)
	a, err := MAC(k1, "x", []byte("data"))
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != sha256.Size {
		t.Fatalf("%d bytes, want %d", len(a), sha256.Size)
	}
	again, _ := MAC(k1, "x", []byte("data"))
	otherKey, _ := MAC(k2, "x", []byte("data"))
	otherLabel, _ := MAC(k1, "y", []byte("data"))
	otherData, _ := MAC(k1, "x", []byte("datb"))
	if !bytes.Equal(a, again) {
		t.Fatal("MAC is not deterministic")
	}
	for name, b := range map[string][]byte{"key": otherKey, "label": otherLabel, "data": otherData} {
		if bytes.Equal(a, b) {
			t.Errorf("another %s gives the same MAC", name)
		}
	}
	// The construction doc.go states, computed independently.
	mk, _ := hkdf.Key(sha256.New, k1.b[:], nil, "chatcli mac v1 x", 32)
	m := hmac.New(sha256.New, mk)
	m.Write([]byte("data"))
	if !bytes.Equal(a, m.Sum(nil)) {
		t.Fatal("MAC differs from HMAC-SHA256 under HKDF(master, info=\"chatcli mac v1 \"||label)")
	}
	if _, err := MAC(Key{}, "x", nil); !errors.Is(err, ErrBadKey) {
		t.Fatalf("zero key: %v, want ErrBadKey", err)
	}
}
