package seal

import (
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// KDFParams are the Argon2id parameters (RFC 9106) that turn a passphrase
// into a master key: Time passes over MemoryKiB KiB of memory, in Threads
// lanes.
type KDFParams struct {
	Time      uint32 `json:"time"`
	MemoryKiB uint32 `json:"memory_kib"`
	Threads   uint8  `json:"threads"`
}

// DefaultKDF is RFC 9106 §4's second recommended option for memory-
// constrained settings: t = 3, m = 64 MiB, p = 4 (about 0.1 s on one core
// of a current machine, once per process).
var DefaultKDF = KDFParams{Time: 3, MemoryKiB: 64 << 10, Threads: 4}

// PassphraseSaltBytes is the size of a passphrase salt: 128 bits, what
// RFC 9106 §3.1 recommends for password hashing.
const PassphraseSaltBytes = 16

// PassphraseKey derives a master key from a passphrase: Argon2id (RFC 9106,
// version 0x13) of the passphrase's bytes as given, with salt and p, 32
// bytes out; the key then seals as a ParseKey key does. Errors wrap
// ErrBadKey: an empty or blank passphrase, a salt shorter than
// PassphraseSaltBytes, or parameters Argon2 refuses (Time or Threads 0,
// MemoryKiB under 8 × Threads). They never contain the passphrase.
func PassphraseKey(passphrase string, salt []byte, p KDFParams) (Key, error) {
	switch {
	case strings.TrimSpace(passphrase) == "":
		return Key{}, fmt.Errorf("%w: empty", ErrBadKey)
	case len(salt) < PassphraseSaltBytes:
		return Key{}, fmt.Errorf("%w: passphrase salt of %d bytes, want %d", ErrBadKey, len(salt), PassphraseSaltBytes)
	case p.Time == 0 || p.Threads == 0 || p.MemoryKiB < 8*uint32(p.Threads):
		return Key{}, fmt.Errorf("%w: Argon2id parameters t=%d m=%dKiB p=%d", ErrBadKey, p.Time, p.MemoryKiB, p.Threads)
	}
	raw := argon2.IDKey([]byte(passphrase), salt, p.Time, p.MemoryKiB, p.Threads, KeySizeBytes)
	defer clear(raw)
	var k Key
	copy(k.b[:], raw)
	k.set = true
	return k, nil
}
