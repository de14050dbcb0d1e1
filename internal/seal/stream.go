package seal

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Stream layout (version 2, see doc.go).
const (
	version2         = 2
	prefixOff        = saltOff + saltSize         // 41
	prefixSize       = 7                          // random nonce prefix
	streamHeaderSize = prefixOff + prefixSize     // 48
	hkdfInfoV2       = "chatcli seal v2"          // HKDF info of a stream's file key
	segmentCipherLen = SegmentSizeBytes + tagSize // a segment that is not the last
	lastFlag         = 1                          // last byte of the nonce of the final segment
)

// MinStreamBytes is the length of an empty stream: its 48-byte header and
// an empty final segment (its 16-byte tag). A stream of n bytes of
// plaintext is n + 48 + 16*max(1, ceil(n/SegmentSizeBytes)) bytes long.
const MinStreamBytes = streamHeaderSize + tagSize

// SegmentSizeBytes is the plaintext of every segment of a stream but the
// last, which holds 0 to SegmentSizeBytes bytes (0 only when the whole
// stream is empty). Fixed by version 2.
const SegmentSizeBytes = 64 << 10

// Writer seals a stream (envelope version 2) written to it; Close writes
// the final segment. It holds one segment, SegmentSizeBytes, whatever the
// stream's length. Its errors are sticky.
type Writer struct {
	w     io.Writer
	aead  cipher.AEAD
	hdr   [streamHeaderSize]byte
	ad    []byte
	buf   []byte // plaintext of the segment being filled; cap segmentCipherLen
	seg   uint64
	begun bool // header written
	err   error
}

// NewWriter returns a Writer sealing for name (as Seal) under k to w. It
// draws the salt and nonce prefix and writes nothing yet: the header goes
// to w with the first segment, so the caller can write what binds the
// stream (Salt) before it. Errors: ErrBadKey for the zero Key, or a
// failure of the random source.
func NewWriter(w io.Writer, k Key, name string) (*Writer, error) {
	if !k.set {
		return nil, errZeroKey
	}
	sw := &Writer{w: w, buf: make([]byte, 0, segmentCipherLen)}
	copy(sw.hdr[:], magic)
	sw.hdr[versionOff] = version2
	if _, err := io.ReadFull(random, sw.hdr[saltOff:]); err != nil {
		return nil, fmt.Errorf("seal: reading random salt and nonce: %w", err)
	}
	var err error
	if sw.aead, sw.ad, err = streamKey(k, sw.hdr[:], name); err != nil {
		return nil, err
	}
	return sw, nil
}

// streamKey derives the file key of the stream whose header is hdr and
// returns AES-256-GCM under it and the segments' associated data for name.
func streamKey(k Key, hdr []byte, name string) (cipher.AEAD, []byte, error) {
	aead, err := newAEADInfo(k, hdr[saltOff:prefixOff], hkdfInfoV2)
	return aead, additionalData(hdr, name), err
}

// Salt returns the stream's 32-byte salt (bytes 9..40 of its header).
func (w *Writer) Salt() []byte { return bytes.Clone(w.hdr[saltOff:prefixOff]) }

// Write buffers p and seals each segment once it is full and more
// follows. It returns len(p) or the first error of the stream.
func (w *Writer) Write(p []byte) (int, error) {
	n := 0
	for w.err == nil && len(p) > 0 {
		if len(w.buf) == SegmentSizeBytes {
			w.err = w.flush(0)
			continue
		}
		c := copy(w.buf[len(w.buf):SegmentSizeBytes], p)
		w.buf, p, n = w.buf[:len(w.buf)+c], p[c:], n+c
	}
	return n, w.err
}

// Close seals the buffered plaintext as the final segment and writes it
// (with the header, for a stream of one segment). It does not close the
// underlying writer; a second Close does nothing.
func (w *Writer) Close() error {
	if w.err == errClosed {
		return nil
	}
	if w.err == nil {
		w.err = w.flush(lastFlag)
	}
	if w.err != nil {
		return w.err
	}
	w.err = errClosed
	return nil
}

var errClosed = errors.New("seal: write to a closed stream")

// flush seals and writes the buffered segment.
func (w *Writer) flush(last byte) error {
	if w.seg > math.MaxUint32 {
		return errors.New("seal: stream longer than 2^32 segments")
	}
	if !w.begun {
		if _, err := w.w.Write(w.hdr[:]); err != nil {
			return err
		}
		w.begun = true
	}
	ct := w.aead.Seal(w.buf[:0], w.nonce(last), w.buf, w.ad)
	if _, err := w.w.Write(ct); err != nil {
		return err
	}
	w.buf, w.seg = w.buf[:0], w.seg+1
	return nil
}

func (w *Writer) nonce(last byte) []byte { return segmentNonce(w.hdr[prefixOff:], uint32(w.seg), last) }

// segmentNonce is prefix || uint32be(seg) || last.
func segmentNonce(prefix []byte, seg uint32, last byte) []byte {
	n := make([]byte, 0, nonceSize)
	n = binary.BigEndian.AppendUint32(append(n, prefix...), seg)
	return append(n, last)
}

// Reader opens a stream (envelope version 2) read from an io.Reader. It
// returns a segment's bytes only once that segment authenticated, and
// io.EOF only after the final segment did, so a stream cut short,
// reordered, spliced from another stream, followed by more bytes, sealed
// for another name or under another key fails (ErrWrongKey) before any
// byte it did not vouch for is returned. It holds one segment.
type Reader struct {
	r     io.Reader
	aead  cipher.AEAD
	hdr   [streamHeaderSize]byte
	ad    []byte
	buf   []byte // cap segmentCipherLen+1: a segment and one byte of the next
	pt    []byte // authenticated plaintext not yet returned
	carry int    // 1 when buf[segmentCipherLen] is the next segment's first byte
	seg   uint64
	err   error // sticky; io.EOF after the final segment
}

// NewReader reads the header of a stream from r and returns a Reader of
// its plaintext, opened for name under k. Errors wrap ErrNotSealed (no
// magic), ErrTooNew (a version after 2), ErrCorrupt (cut inside the
// header, version 0, or version 1, which Open reads whole), ErrBadKey (the
// zero Key), or r's error.
func NewReader(r io.Reader, k Key, name string) (*Reader, error) {
	sr := &Reader{r: r}
	n, err := io.ReadFull(r, sr.hdr[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	h := sr.hdr[:n]
	if err := checkHeader(k, h, version2, streamHeaderSize); err != nil {
		return nil, err
	}
	if sr.aead, sr.ad, err = streamKey(k, h, name); err != nil {
		return nil, err
	}
	sr.buf = make([]byte, segmentCipherLen+1)
	return sr, nil
}

// Salt returns the stream's 32-byte salt (bytes 9..40 of its header).
func (r *Reader) Salt() []byte { return bytes.Clone(r.hdr[saltOff:prefixOff]) }

// Read returns authenticated plaintext; io.EOF once the final segment
// authenticated. Errors wrap ErrWrongKey (a segment failed: wrong key or
// name, a changed, moved, missing or added byte, a stream cut short) or
// are the underlying reader's; they are sticky.
func (r *Reader) Read(p []byte) (int, error) {
	for len(r.pt) == 0 && r.err == nil {
		r.err = r.next()
	}
	if len(r.pt) == 0 {
		return 0, r.err
	}
	n := copy(p, r.pt)
	r.pt = r.pt[n:]
	return n, nil
}

// next reads and opens the next segment. One byte read past a full
// segment tells whether more follows: a segment ended by the end of r is
// the final one.
func (r *Reader) next() error {
	if r.carry == 1 {
		r.buf[0] = r.buf[segmentCipherLen]
	}
	n, err := io.ReadFull(r.r, r.buf[r.carry:])
	n += r.carry
	last := byte(0)
	switch {
	case err == nil:
		n, r.carry = segmentCipherLen, 1
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		last, r.carry = lastFlag, 0
	default:
		return err
	}
	pt, err := r.aead.Open(r.buf[:0], segmentNonce(r.hdr[prefixOff:], uint32(r.seg), last), r.buf[:n], r.ad)
	if err != nil || r.seg > math.MaxUint32 { // segment numbers are 32 bits
		return fmt.Errorf("%w: segment %d", ErrWrongKey, r.seg)
	}
	r.pt, r.seg = pt, r.seg+1
	if last == lastFlag {
		return io.EOF
	}
	return nil
}
