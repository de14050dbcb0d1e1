package seal

import (
	"bytes"
	"errors"
	"testing"
)

func TestReseal(t *testing.T) {
	old, nw, other := keyOf(t, 1), keyOf(t, 2), keyOf(t, 3)
	plain := []byte(`{"notes":[]}`)
	underOld, _ := Seal(old, "memory", plain)
	for _, tc := range []struct {
		name string
		in   []byte
	}{{"plaintext", plain}, {"old key", underOld}} {
		out, changed, err := Reseal(tc.in, "memory", old, nw)
		if err != nil || !changed {
			t.Fatalf("%s: %v %v", tc.name, changed, err)
		}
		if got, err := Open(nw, "memory", out); err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%s: %q %v", tc.name, got, err)
		}
		if again, changed, err := Reseal(out, "memory", old, nw); err != nil || changed || !bytes.Equal(again, out) {
			t.Fatalf("%s: a second run changed it: %v %v", tc.name, changed, err)
		}
	}
	underOther, _ := Seal(other, "memory", plain)
	if _, _, err := Reseal(underOther, "memory", old, nw); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("neither key: %v", err)
	}
	if _, _, err := Reseal(plain, "memory", old, Key{}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("zero key: %v", err)
	}
}
