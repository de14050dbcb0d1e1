package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
)

// ErrDamaged is wrapped by the errors about an index file that cannot be
// trusted: not an index file, cut short, a checksum that does not match,
// or a frame that does not open with the store's key. Such a file is
// reported and the index rebuilt; match it with errors.Is.
var ErrDamaged = i18n.Errorf("index: damaged or foreign index file")

// ErrKeySetting is wrapped by the error about an index file sealed when
// no key is set, or plain when one is: the index was made before the key
// was set or removed, and is rebuilt.
var ErrKeySetting = i18n.Errorf("index: made under another encryption setting")

// ErrOldFormat is wrapped by the error about an index file of an earlier
// format version than this build writes (version 1 had no skip tables in
// its posting lists): it is never read as this version's, and the index
// is rebuilt in this version.
var ErrOldFormat = i18n.Errorf("index: index file of an earlier format")

// ErrTooNew is wrapped by the error about an index file of a later format
// version than this build reads; the index is rebuilt in this version.
var ErrTooNew = i18n.Errorf("index: index file written by a newer chatcli")

// File header (doc.go, "Files"): magic, kind, version, flags, reserved.
const (
	magic        = "\x89CCX\r\n\x1a\n"
	headerBytes  = 16
	version      = 2
	flagSealed   = 1
	kindManifest = 'M'
	kindSegment  = 'S'
	kindLog      = 'L'
	frameHead    = 8 // uint32 length + uint32 CRC-32C
	// maxFrameBytes bounds a frame's length, so a damaged length is
	// reported instead of allocated.
	maxFrameBytes = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header returns the 16 bytes that open an index file of kind.
func header(kind byte, sealed bool) []byte {
	h := make([]byte, headerBytes)
	copy(h, magic)
	h[8], h[9] = kind, version
	if sealed {
		h[10] = flagSealed
	}
	return h
}

// checkHeader checks the first bytes of the index file named name, of
// kind, for a store whose key is key.
func checkHeader(name string, h []byte, kind byte, key seal.Key) error {
	switch {
	case len(h) < headerBytes || string(h[:8]) != magic || h[8] != kind:
		return i18n.Errorf("%w: %s is not a chatcli index file", ErrDamaged, name)
	case h[9] > version:
		return i18n.Errorf("%w: %s has format version %d; this chatcli reads %d", ErrTooNew, name, h[9], version)
	case h[9] == 0 || h[10]&^flagSealed != 0:
		return i18n.Errorf("%w: %s has version %d, flags %s", ErrDamaged, name, h[9], fmt.Sprintf("%#x", h[10]))
	case h[10]&flagSealed != 0 && key.IsZero(): // before the version: a sealed index is left alone without the key
		return i18n.Errorf("%w: %s is sealed and no encryption key is set", ErrKeySetting, name)
	case h[10]&flagSealed == 0 && !key.IsZero():
		return i18n.Errorf("%w: %s is plaintext in an encrypted store", ErrKeySetting, name)
	case h[9] < version:
		return i18n.Errorf("%w: %s has format version %d; this chatcli writes %d", ErrOldFormat, name, h[9], version)
	}
	return nil
}

// frameName is the name a frame is sealed for: the file and the offset
// where the frame starts, so no frame opens in another file or place.
func frameName(file string, off int64) string {
	return "index:" + file + ":" + strconv.FormatInt(off, 10)
}

// appendFrame appends to dst, which holds the file named file from its
// first byte, the frame of plaintext: sealed with key unless key is zero.
func appendFrame(dst []byte, key seal.Key, file string, plaintext []byte) ([]byte, error) {
	return appendFrameAt(dst, 0, key, file, plaintext)
}

// appendFrameAt is appendFrame for dst holding the file named file from
// its byte base on (an entry appended to a log of base bytes).
func appendFrameAt(dst []byte, base int64, key seal.Key, file string, plaintext []byte) ([]byte, error) {
	off := len(dst)
	dst = append(dst, make([]byte, frameHead)...)
	if key.IsZero() {
		dst = append(dst, plaintext...)
	} else {
		var err error
		if dst, err = seal.AppendSeal(dst, key, frameName(file, base+int64(off)), plaintext); err != nil {
			return nil, err
		}
	}
	payload := dst[off+frameHead:]
	binary.LittleEndian.PutUint32(dst[off:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(dst[off+4:], crc32.Checksum(payload, castagnoli))
	return dst, nil
}

// readFrame reads the frame at off of r, the index file named file, and
// returns its plaintext and the offset after it.
func readFrame(r io.ReaderAt, key seal.Key, file string, off int64) ([]byte, int64, error) {
	var h [frameHead]byte
	if _, err := r.ReadAt(h[:], off); err != nil {
		return nil, 0, i18n.Errorf("%w: %s: frame at byte %d: %v", ErrDamaged, file, off, err)
	}
	n := binary.LittleEndian.Uint32(h[:])
	if n > maxFrameBytes {
		return nil, 0, i18n.Errorf("%w: %s: frame at byte %d claims %d bytes", ErrDamaged, file, off, n)
	}
	payload := make([]byte, n)
	if _, err := r.ReadAt(payload, off+frameHead); err != nil {
		return nil, 0, i18n.Errorf("%w: %s: frame at byte %d cut short: %v", ErrDamaged, file, off, err)
	}
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(h[4:]) {
		return nil, 0, i18n.Errorf("%w: %s: frame at byte %d: checksum mismatch", ErrDamaged, file, off)
	}
	next := off + frameHead + int64(n)
	if key.IsZero() {
		return payload, next, nil
	}
	pt, err := seal.OpenInPlace(key, frameName(file, off), payload)
	if err != nil {
		return nil, 0, i18n.Errorf("%w: %s: frame at byte %d: %v", ErrDamaged, file, off, err)
	}
	return pt, next, nil
}

// reader decodes the varints and strings of a frame's plaintext; the
// first decoding error sticks (err) and later reads return zeros.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *reader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) string() string { return string(r.bytes(r.uvarint())) }

// appendString appends s with its length as a uvarint.
func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
