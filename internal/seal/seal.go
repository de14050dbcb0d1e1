package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Envelope layout (see doc.go).
const (
	magic      = "\x89CHS\r\n\x1a\n"
	version1   = 1
	saltSize   = 32
	nonceSize  = 12 // 96 bits, NIST SP 800-38D §8.2
	tagSize    = 16
	versionOff = len(magic)
	saltOff    = versionOff + 1
	nonceOff   = saltOff + saltSize
	headerSize = nonceOff + nonceSize // 53
	hkdfInfo   = "chatcli seal v1"

	// maxPlaintextBytes is GCM's limit for one message (2^39-256 bits).
	maxPlaintextBytes = (1<<32 - 2) * 16
)

// Overhead is how many bytes an envelope adds to its plaintext: the 53-byte
// header and the 16-byte tag.
const Overhead = headerSize + tagSize

// random is the source of salts and nonces; tests replace it to get fixed
// envelopes.
var random io.Reader = rand.Reader

// IsSealed reports whether data starts with the envelope magic. Data that
// does not is plaintext (or an envelope cut inside its first 8 bytes).
func IsSealed(data []byte) bool { return bytes.HasPrefix(data, []byte(magic)) }

// Seal encrypts plaintext for the file or record called name (a session
// name, or "journal:<id>") and returns a new envelope of
// len(plaintext)+Overhead bytes. Each call draws a fresh salt and nonce,
// derives a fresh file key with HKDF-SHA256 (RFC 5869) and encrypts with
// AES-256-GCM (NIST SP 800-38D) in one pass, writing straight into the
// envelope; the header and the name are authenticated as associated data.
func Seal(k Key, name string, plaintext []byte) ([]byte, error) {
	return AppendSeal(make([]byte, 0, len(plaintext)+Overhead), k, name, plaintext)
}

// AppendSeal is Seal appending the envelope to dst and returning the
// extended slice; with cap(dst)-len(dst) >= len(plaintext)+Overhead
// nothing is allocated. plaintext must not overlap dst's free capacity.
func AppendSeal(dst []byte, k Key, name string, plaintext []byte) ([]byte, error) {
	if !k.set {
		return nil, errZeroKey
	}
	if uint64(len(plaintext)) > maxPlaintextBytes {
		return nil, fmt.Errorf("seal: %d bytes is more than AES-GCM can seal at once", len(plaintext))
	}
	start := len(dst)
	dst = append(dst, magic...)
	dst = append(dst, version1)
	dst = append(dst, make([]byte, headerSize-saltOff)...)
	hdr := dst[start : start+headerSize]
	if _, err := io.ReadFull(random, hdr[saltOff:headerSize]); err != nil {
		return nil, fmt.Errorf("seal: reading random salt and nonce: %w", err)
	}
	aead, err := newAEAD(k, hdr[saltOff:nonceOff])
	if err != nil {
		return nil, err
	}
	return aead.Seal(dst, hdr[nonceOff:headerSize], plaintext, additionalData(hdr, name)), nil
}

// Open authenticates envelope as sealed for name under k and returns the
// plaintext in a new buffer. Errors wrap ErrNotSealed (no magic: plaintext;
// test IsSealed first), ErrTooNew (later format version), ErrCorrupt (too
// short to be an envelope) or ErrWrongKey (authentication failed: the wrong
// key, a changed byte, or an envelope sealed for another name, which GCM
// cannot tell apart). envelope is not modified.
func Open(k Key, name string, envelope []byte) ([]byte, error) {
	if err := checkEnvelope(k, envelope); err != nil {
		return nil, err
	}
	dst := make([]byte, 0, len(envelope)-Overhead)
	return open(k, name, envelope, dst)
}

// OpenInPlace is Open decrypting into envelope's own storage: the returned
// plaintext aliases envelope[53:], and envelope is overwritten, on success
// and on failure alike (AES-GCM clears its output when authentication
// fails), so it must not be used again. It saves Open's allocation of a
// second buffer the size of the plaintext. Errors are Open's.
func OpenInPlace(k Key, name string, envelope []byte) ([]byte, error) {
	if err := checkEnvelope(k, envelope); err != nil {
		return nil, err
	}
	return open(k, name, envelope, envelope[headerSize:headerSize])
}

// checkEnvelope validates the key, magic, version and length of envelope.
func checkEnvelope(k Key, envelope []byte) error { return checkHeader(k, envelope, version1, Overhead) }

// checkHeader validates the key, and the magic and version of b, which
// must be version want and at least minBytes long: a version after 2 is
// too new, any other not want is corrupt (version 0, or the other of
// versions 1 and 2, which are opened by different calls).
func checkHeader(k Key, b []byte, want byte, minBytes int) error {
	if !k.set {
		return errZeroKey
	}
	n := len(b)
	switch {
	case n > 0 && n < len(magic) && string(b) == magic[:n]:
		return i18n.Errorf("%w: cut short inside the magic", ErrCorrupt)
	case !IsSealed(b):
		return ErrNotSealed
	case n == len(magic):
		return i18n.Errorf("%w: cut short after the magic, no version byte", ErrCorrupt)
	case b[versionOff] > version2:
		return i18n.Errorf("%w: version %d, this build reads versions 1 and 2", ErrTooNew, int(b[versionOff]))
	case b[versionOff] != want:
		return i18n.Errorf("%w: version %d is not the one expected here", ErrCorrupt, int(b[versionOff]))
	case n < minBytes:
		return i18n.Errorf("%w: %d bytes, too short", ErrCorrupt, n)
	}
	return nil
}

// open decrypts a checked envelope, appending the plaintext to dst, which
// may be envelope[headerSize:headerSize] to decrypt in place.
func open(k Key, name string, envelope, dst []byte) ([]byte, error) {
	aead, err := newAEAD(k, envelope[saltOff:nonceOff])
	if err != nil {
		return nil, err
	}
	pt, err := aead.Open(dst, envelope[nonceOff:headerSize], envelope[headerSize:], additionalData(envelope[:headerSize], name))
	if err != nil {
		return nil, ErrWrongKey
	}
	return pt, nil
}

// newAEAD derives the version-1 file key for salt and returns AES-256-GCM
// under it.
func newAEAD(k Key, salt []byte) (cipher.AEAD, error) { return newAEADInfo(k, salt, hkdfInfo) }

// newAEADInfo is newAEAD with the HKDF info string of a version.
func newAEADInfo(k Key, salt []byte, info string) (cipher.AEAD, error) {
	fileKey, err := hkdf.Key(sha256.New, k.b[:], salt, info, 32)
	if err != nil {
		return nil, fmt.Errorf("seal: deriving the file key: %w", err)
	}
	defer clear(fileKey)
	block, err := aes.NewCipher(fileKey)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return aead, nil
}

// additionalData returns header || uint64be(len(name)) || name.
func additionalData(header []byte, name string) []byte {
	ad := make([]byte, 0, len(header)+8+len(name))
	ad = append(ad, header...)
	ad = binary.BigEndian.AppendUint64(ad, uint64(len(name)))
	return append(ad, name...)
}
