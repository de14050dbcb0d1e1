package seal

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

const seg = SegmentSizeBytes

// streamSizes are the plaintext lengths at and around segment boundaries.
var streamSizes = []int{0, 1, seg - 1, seg, seg + 1, 3*seg + 5, 4 * seg}

func plain(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>16)
	}
	return b
}

// sealStream seals pt for name under k, written in pieces of chunk bytes.
func sealStream(t testing.TB, k Key, name string, pt []byte, chunk int) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := NewWriter(&out, k, name)
	if err != nil {
		t.Fatal(err)
	}
	for p := pt; len(p) > 0; {
		c := min(chunk, len(p))
		if n, err := w.Write(p[:c]); err != nil || n != c {
			t.Fatalf("Write: %d, %v", n, err)
		}
		p = p[c:]
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := w.Write([]byte("x")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
	return out.Bytes()
}

// openStream reads the whole stream; got is what the Reader returned
// before its error.
func openStream(k Key, name string, data []byte) (got []byte, err error) {
	r, err := NewReader(bytes.NewReader(data), k, name)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func segments(n int) int { return max(1, (n+seg-1)/seg) }

func TestStreamRoundTripAtSegmentBoundaries(t *testing.T) {
	k := keyOf(t, 1)
	for _, n := range streamSizes {
		pt := plain(n)
		for _, chunk := range []int{1 << 20, 1000, seg} {
			s := sealStream(t, k, "s", pt, chunk)
			if want := n + streamHeaderSize + tagSize*segments(n); len(s) != want || !IsSealed(s) {
				t.Fatalf("%d bytes in writes of %d: stream of %d bytes, want %d", n, chunk, len(s), want)
			}
			r, err := NewReader(iotest.HalfReader(bytes.NewReader(s)), k, "s")
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(iotest.OneByteReader(r))
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%d bytes: got %d bytes, %v", n, len(got), err)
			}
		}
	}
	if MinStreamBytes != len(sealStream(t, k, "s", nil, 1)) {
		t.Fatal("MinStreamBytes is not the length of an empty stream")
	}
}

// TestStreamTamper: every change the STREAM construction is there to catch
// fails as ErrWrongKey, and nothing is returned of a segment that did not
// authenticate.
func TestStreamTamper(t *testing.T) {
	k := keyOf(t, 1)
	pt := plain(3*seg + 5)
	s := sealStream(t, k, "s", pt, 1<<20)
	other := sealStream(t, k, "s", pt, 1<<20) // same key, name and plaintext: another salt
	segAt := func(i int) int { return streamHeaderSize + i*segmentCipherLen }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	cases := []struct {
		name  string
		data  []byte
		valid int // plaintext bytes that may be returned before the error
	}{
		{"cut at a segment boundary", s[:segAt(3)], 2 * seg},
		{"cut after the first segment", s[:segAt(1)], 0},
		{"cut to the header", s[:streamHeaderSize], 0},
		{"cut inside the final segment", s[:len(s)-1], 3 * seg},
		{"cut inside a tag", s[:segAt(2)-3], seg},
		{"segments 1 and 2 swapped", cat(s[:segAt(1)], s[segAt(2):segAt(3)], s[segAt(1):segAt(2)], s[segAt(3):]), seg},
		{"final segment dropped, last full one kept", s[:segAt(3)], 2 * seg},
		{"segment from another stream", cat(s[:segAt(1)], other[segAt(1):segAt(2)], s[segAt(2):]), seg},
		{"another stream's header", cat(other[:streamHeaderSize], s[streamHeaderSize:]), 0},
		{"a byte after the final segment", cat(s, []byte{0}), 3 * seg},
		{"a segment repeated after the final one", cat(s, s[segAt(0):segAt(1)]), 3 * seg},
		{"flipped bit in the salt", flipBit(s, 8*saltOff), 0},
		{"flipped bit in the nonce prefix", flipBit(s, 8*(prefixOff+6)), 0},
		{"flipped bit in segment 2", flipBit(s, 8*segAt(2)+3), 2 * seg},
		{"flipped bit in the last tag", flipBit(s, 8*len(s)-1), 3 * seg},
	}
	for _, c := range cases {
		got, err := openStream(k, "s", c.data)
		if !errors.Is(err, ErrWrongKey) {
			t.Errorf("%s: %v, want ErrWrongKey", c.name, err)
		}
		if len(got) > c.valid || !bytes.Equal(got, pt[:len(got)]) || len(got)%seg != 0 {
			t.Errorf("%s: returned %d bytes before the error, at most %d authenticated", c.name, len(got), c.valid)
		}
	}
	for name, open := range map[string]func() ([]byte, error){
		"wrong key":  func() ([]byte, error) { return openStream(keyOf(t, 2), "s", s) },
		"wrong name": func() ([]byte, error) { return openStream(k, "t", s) },
	} {
		if got, err := open(); !errors.Is(err, ErrWrongKey) || len(got) != 0 {
			t.Errorf("%s: %d bytes, %v", name, len(got), err)
		}
	}
	// An empty stream sealed for another name does not stand in either.
	if _, err := openStream(k, "s", sealStream(t, k, "t", nil, 1)); !errors.Is(err, ErrWrongKey) {
		t.Errorf("empty stream of another name: %v", err)
	}
}

func TestStreamHeaderErrors(t *testing.T) {
	k := keyOf(t, 1)
	s := sealStream(t, k, "s", []byte("x"), 1)
	withVersion := func(v byte) []byte { e := bytes.Clone(s); e[versionOff] = v; return e }
	for _, c := range []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrNotSealed},
		{"plaintext", []byte(`{"version":2}`), ErrNotSealed},
		{"half the magic", []byte(magic[:3]), ErrCorrupt},
		{"magic only", []byte(magic), ErrCorrupt},
		{"cut in the header", s[:streamHeaderSize-1], ErrCorrupt},
		{"version 0", withVersion(0), ErrCorrupt},
		{"version 1 envelope", mustSeal(t, k, "s", []byte("x")), ErrCorrupt},
		{"version 3", withVersion(3), ErrTooNew},
		{"version 3, short", []byte(magic + "\x03"), ErrTooNew},
	} {
		if _, err := NewReader(bytes.NewReader(c.in), k, "s"); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := NewReader(bytes.NewReader(s), Key{}, "s"); !errors.Is(err, ErrBadKey) {
		t.Errorf("zero key: %v", err)
	}
	if _, err := NewWriter(io.Discard, Key{}, "s"); !errors.Is(err, ErrBadKey) {
		t.Errorf("zero key: %v", err)
	}
	boom := errors.New("boom")
	if _, err := NewReader(iotest.ErrReader(boom), k, "s"); !errors.Is(err, boom) {
		t.Errorf("read error: %v", err)
	}
}

// The salt is known before anything is written, and is the header's.
func TestStreamSaltBeforeTheBody(t *testing.T) {
	k := keyOf(t, 1)
	var out bytes.Buffer
	w, err := NewWriter(&out, k, "s")
	if err != nil {
		t.Fatal(err)
	}
	salt := w.Salt()
	if out.Len() != 0 || len(salt) != saltSize {
		t.Fatalf("%d bytes written before the body, salt of %d bytes", out.Len(), len(salt))
	}
	w.Write([]byte("hello"))
	w.Close()
	r, err := NewReader(&out, k, "s")
	if err != nil || !bytes.Equal(r.Salt(), salt) {
		t.Fatalf("salt %x, want %x (%v)", r.Salt(), salt, err)
	}
}

// A failing destination stops the stream: its error is sticky.
func TestStreamWriteError(t *testing.T) {
	boom := errors.New("boom")
	w, _ := NewWriter(failWriter{boom}, keyOf(t, 1), "s")
	if _, err := w.Write(plain(seg + 1)); !errors.Is(err, boom) {
		t.Fatalf("Write: %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close: %v", err)
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }
