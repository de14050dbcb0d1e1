// Package seal is chatcli's encryption at rest: it parses the master key
// (CHATCLI_ENCRYPTION_KEY), and seals and opens the envelopes that hold a
// session file or a journal line when encryption is on. It knows nothing of
// sessions, journals, files or LLMs: callers pass bytes and a name and get
// bytes back.
//
// # Keys
//
// The master key is 32 random bytes, given as standard base64 (44
// characters, as printed by `openssl rand -base64 32`; the unpadded 43
// characters are accepted too), or derived from a passphrase (any other
// text; PassphraseKey) with Argon2id (RFC 9106, version 0x13):
//
//	master key = Argon2id(password = passphrase bytes, salt, t, m KiB, p lanes, 32 bytes)
//
// the 16-byte salt and the parameters (DefaultKDF: t=3, m=65536, p=4)
// being kept by the caller beside the store (package config,
// $CHATCLI_HOME/key-salt.json). It never encrypts anything itself. Every
// envelope has its own file key, derived with HKDF-SHA256 (RFC 5869) from
// the master key and a fresh 32-byte random salt stored in the envelope:
//
//	fileKey = HKDF-SHA256(secret = master key, salt = salt, info = "chatcli seal v1", L = 32)
//
// so one exposed file key exposes no other file, and no two envelopes share
// a key.
//
// # Envelope (version 1)
//
// Version 1 seals a file or a journal line in one piece; version 2 (below)
// seals a stream in segments.
//
// A sealed file is one envelope, a binary blob laid out as follows (offsets
// in bytes, n = length of the plaintext):
//
//	offset  size  field
//	0       8     magic: 0x89 'C' 'H' 'S' 0x0D 0x0A 0x1A 0x0A  ("\x89CHS\r\n\x1a\n")
//	8       1     version: 0x01
//	9       32    salt: random, input of HKDF
//	41      12    nonce: random 96-bit GCM nonce
//	53      n     ciphertext: AES-256-GCM of the plaintext under the file key
//	53+n    16    tag: GCM authentication tag
//
// The header is bytes 0..52 (53 bytes); an envelope is exactly n+69 bytes
// long (Overhead = 69). The magic follows PNG's: its first byte has the high
// bit set and is not a valid first byte of UTF-8, so a sealed file can never
// be taken for JSON or any text; "\r\n" and "\x1a" catch line-ending
// conversion and text-mode copies. Nothing follows the tag.
//
// Encryption is AES-256-GCM (NIST SP 800-38D) with a 96-bit nonce, the
// length SP 800-38D recommends, and a 128-bit tag. The nonce is random;
// since every file key is fresh and seals exactly one message, a nonce is
// never reused under a key. The associated data is
//
//	AD = header (bytes 0..52) || uint64 big-endian len(name) || name
//
// so the tag covers the magic, version, salt and nonce, and binds the
// envelope to the name it was sealed for (a session name, or
// "journal:<id>" for a journal line). The name is compared byte for byte:
// callers pass the canonical (NFC) name, and renaming or forking a session
// re-seals its file under the new name. An envelope copied or renamed to
// another name fails to open.
//
// # Stream (version 2)
//
// A file too large to hold in memory twice is sealed as a stream: the
// STREAM construction (Hoang, Reyhanitabar, Rogaway and Vizár, "Online
// Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance",
// CRYPTO 2015) over AES-256-GCM, with the nonce layout of Tink's
// AES-GCM-HKDF streaming AEAD. The plaintext is cut into segments of
// SegmentSizeBytes (64 KiB, fixed by the version), each sealed on its own;
// the last holds the remaining 0 to 65,536 bytes (0 only when the whole
// plaintext is empty, so an empty stream is one empty segment). Offsets in
// bytes, n = length of the plaintext, s = max(1, ceil(n / 65536)) segments:
//
//	offset        size        field
//	0             8           magic, as in version 1
//	8             1           version: 0x02
//	9             32          salt: random, input of HKDF
//	41            7           nonce prefix: random
//	48            65536+16    segment 0: AES-256-GCM ciphertext and tag
//	48+i*65552    65536+16    segment i (every segment but the last is full)
//	…             r+16        last segment, r = n - (s-1)*65536 bytes of plaintext
//
// A stream is n + 48 + 16*s bytes long (MinStreamBytes = 64 when empty);
// nothing follows the last segment. Its file key is
//
//	fileKey = HKDF-SHA256(secret = master key, salt = salt, info = "chatcli seal v2", L = 32)
//
// and segment i is sealed with the 96-bit nonce
//
//	nonce_i = nonce prefix (7 bytes) || uint32 big-endian i || last (0x01 for the last segment, else 0x00)
//
// and, for every segment, AD = header (bytes 0..47) || uint64 big-endian
// len(name) || name. So a segment opens only at its own position of its
// own stream (another stream has another key), and only the last segment
// opens as the last: a stream cut at a segment boundary, reordered, given
// a segment of another stream, or followed by anything fails
// authentication. A stream has at most 2^32 segments (256 TiB).
//
// Writer seals as it is written, holding one segment; it writes nothing
// before the first segment is full or Close is called, so the caller can
// write what binds the stream (Writer.Salt) in front of it. Reader holds
// one segment and one byte of the next (the byte that tells a full segment
// from the last one): it returns a segment's plaintext only once that
// segment authenticated, and io.EOF only after the last segment did.
// Journal lines stay version 1 (line form); Open and OpenLine refuse a
// version-2 envelope as corrupt (it is not theirs to open).
//
// # Line form
//
// A journal stays line-based and append-only when each record is sealed on
// its own. A sealed line is ASCII text without "\n":
//
//	"chatcli-sealed:v1:" base64(envelope)
//
// with the standard base64 alphabet, padding, no line breaks. Plain journal
// lines are JSON objects starting with "{", so the two never mix up. The
// line's plaintext is the record without its "\n". Each line is
// authenticated on its own, so sealing alone does not detect lines of one
// journal being removed, repeated or reordered.
//
// # Keyed names
//
// MAC names stored things by their content without a plain hash, which
// would let anyone holding a guess confirm it. It is HMAC-SHA256 (RFC 2104)
// under a key derived for a label:
//
//	macKey = HKDF-SHA256(secret = master key, salt = none, info = "chatcli mac v1 " || label, L = 32)
//	MAC    = HMAC-SHA256(macKey, data)
//
// # ChatCLI's envelope
//
// ChatCLI (diillson/chatcli, cli/session_encryption.go) writes an
// encrypted session file as "CHATCLI_ENC_v1\n" (15 bytes), a 12-byte
// nonce, then AES-256-GCM of the whole file (no associated data, tag
// last), under
//
//	key = HKDF-SHA256(secret = SHA-256(S), salt = none, info = "chatcli-session-encryption", L = 32)
//
// where S is the text of CHATCLI_ENCRYPTION_KEY, or else the bytes of
// ~/.chatcli/.auth-key. OpenChatCLI opens it (ChatCLIKeyFrom derives the
// key); chatcli never writes it.
//
// # Errors
//
// Open, OpenLine, NewReader and Reader.Read return errors wrapping one
// sentinel: ErrNotSealed (no magic or prefix: plaintext, so callers test
// IsSealed or IsSealedLine first), ErrTooNew (a later version of the
// format, 3 or more: upgrade chatcli), ErrCorrupt (too short to be an
// envelope or a stream header, version 0, the other of versions 1 and 2,
// malformed line) or ErrWrongKey; Reader.Read also returns the underlying
// reader's errors as they are. A stream cut anywhere past its 48-byte
// header is ErrWrongKey. GCM cannot tell a wrong key from a tampered byte or an
// envelope moved to another name: all three are ErrWrongKey. An envelope cut
// short past its first 69 bytes is ErrWrongKey as well. ParseKey, and any
// call given the zero Key, return errors wrapping ErrBadKey. No error
// contains key material.
package seal
