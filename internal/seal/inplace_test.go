package seal

import (
	"bytes"
	"errors"
	"testing"
)

func TestOpenInPlaceDecryptsIntoTheEnvelope(t *testing.T) {
	k := keyOf(t, 1)
	pt := bytes.Repeat([]byte("conversation "), 1000)
	env := mustSeal(t, k, "notes", pt)
	got, err := OpenInPlace(k, "notes", env)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("OpenInPlace: %v, equal %v", err, bytes.Equal(got, pt))
	}
	if &got[0] != &env[headerSize] {
		t.Fatal("the plaintext does not alias the envelope's storage")
	}
}

func TestOpenInPlaceFailsLikeOpen(t *testing.T) {
	k := keyOf(t, 1)
	env := mustSeal(t, k, "notes", []byte("secret"))
	for name, c := range map[string]struct {
		k    Key
		name string
		env  []byte
		want error
	}{
		"wrong key":   {keyOf(t, 2), "notes", env, ErrWrongKey},
		"other name":  {k, "other", env, ErrWrongKey},
		"plaintext":   {k, "notes", []byte(`{"version":2}`), ErrNotSealed},
		"cut short":   {k, "notes", env[:40], ErrCorrupt},
		"flipped bit": {k, "notes", flipBit(env, 8*60), ErrWrongKey},
	} {
		if _, err := OpenInPlace(c.k, c.name, bytes.Clone(c.env)); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}
