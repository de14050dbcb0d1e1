package seal

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"testing"
)

// keyOf returns the key whose 32 bytes are seed, seed+1, …, seed+31.
func keyOf(t testing.TB, seed byte) Key {
	t.Helper()
	k, err := ParseKey(base64.StdEncoding.EncodeToString(counting(seed, KeySizeBytes)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// counting returns n bytes seed, seed+1, … (mod 256).
func counting(seed byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = seed + byte(i)
	}
	return b
}

// countingReader yields 0x00, 0x01, … forever: a fixed salt and nonce source.
type countingReader struct{ next byte }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.next
		r.next++
	}
	return len(p), nil
}

// withRandom replaces the random seam for the rest of the test.
func withRandom(t testing.TB, r io.Reader) {
	t.Helper()
	old := random
	random = r
	t.Cleanup(func() { random = old })
}

func mustSeal(t testing.TB, k Key, name string, pt []byte) []byte {
	t.Helper()
	env, err := Seal(k, name, pt)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// sentinel returns which of the package's sentinels err wraps, or nil.
func sentinel(err error) error {
	for _, s := range []error{ErrNotSealed, ErrTooNew, ErrCorrupt, ErrWrongKey, ErrBadKey} {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

func flipBit(b []byte, bit int) []byte {
	c := bytes.Clone(b)
	c[bit/8] ^= 1 << (bit % 8)
	return c
}
