package journal

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"slices"
	"unsafe"

	"github.com/chatcli/chatcli/internal/message"
)

// HashHistory returns the identity hash of every message of h, in order
// (see the package doc: fields, occurrence number, 32 hex digits).
func HashHistory(h []message.Message) []string {
	var c Hashes
	return slices.Clone(c.Of(h))
}

// Hashes keeps the identity hashes of one history as it changes, so that
// each message is hashed once: Of hashes only the messages after the
// longest prefix it has seen unchanged. The check costs one comparison of
// the hashed fields per message, which for strings the history shares
// with the last call (the usual case: appended messages) is a pointer
// comparison; a call with the very slice of the last call costs nothing,
// and one with that slice appended to (the same array, longer) costs only
// the new messages, since messages are never edited in place (only
// replaced, in a new array), a rule the callers keep. The zero value is ready to use; it is not safe for
// concurrent use.
type Hashes struct {
	msgs   []message.Message   // the messages hashed, for the check
	base   [][sha256.Size]byte // digest of each message's fields
	hashes []string            // identity hashes, 32 hex digits
	chain  [][DigestBytes]byte // chain[i]: digest of hashes[:i+1]
	seen   map[[sha256.Size]byte]uint64
	// last is the array of the history last given to Of.
	last *message.Message
}

// Of returns the identity hashes of h, one per message. The slice belongs
// to c and is valid until the next call: callers copy what they keep.
func (c *Hashes) Of(h []message.Message) []string {
	if len(h) > 0 && unsafe.SliceData(h) == c.last && len(h) == len(c.msgs) {
		return c.hashes // the slice of the last call again: messages are never edited in place
	}
	k := 0
	if n := len(c.msgs); n > 0 && unsafe.SliceData(h) == c.last && len(h) > n && sameFields(&h[n-1], &c.msgs[n-1]) {
		k = n // the last call's array, appended to: only the new messages are hashed
	}
	for k < len(h) && k < len(c.msgs) && sameFields(&h[k], &c.msgs[k]) {
		k++
	}
	if k < len(c.msgs) {
		c.truncate(k)
	}
	if c.seen == nil {
		c.seen = make(map[[sha256.Size]byte]uint64, len(h))
	}
	d := sha256.New()
	for i := k; i < len(h); i++ {
		var base [sha256.Size]byte
		d.Reset()
		writeFields(d, &h[i])
		d.Sum(base[:0])
		n := c.seen[base]
		c.seen[base] = n + 1
		d.Reset()
		d.Write(base[:])
		writeUint(d, n)
		var sum [sha256.Size]byte
		d.Sum(sum[:0])
		var id [DigestBytes]byte
		copy(id[:], sum[:])
		c.msgs = append(c.msgs, h[i])
		c.base = append(c.base, base)
		c.hashes = append(c.hashes, hex.EncodeToString(id[:]))
		c.chain = append(c.chain, chainNext(c.digestAt(i), id))
	}
	c.last = unsafe.SliceData(h)
	return c.hashes
}

// Digest returns the digest of the first n hashes of the history last
// given to Of (0 <= n <= its length): see DigestOf.
func (c *Hashes) Digest(n int) string {
	d := c.digestAt(n)
	return hex.EncodeToString(d[:])
}

func (c *Hashes) digestAt(n int) [DigestBytes]byte {
	if n == 0 {
		return [DigestBytes]byte{}
	}
	return c.chain[n-1]
}

// truncate forgets the messages from k on.
func (c *Hashes) truncate(k int) {
	c.msgs, c.base, c.hashes, c.chain = c.msgs[:k:k], c.base[:k:k], c.hashes[:k:k], c.chain[:k:k]
	c.seen = make(map[[sha256.Size]byte]uint64, k)
	for _, b := range c.base {
		c.seen[b]++
	}
}

// sameFields reports whether a and b have the fields a hash covers equal.
func sameFields(a, b *message.Message) bool {
	if a.Role != b.Role || a.Content != b.Content || a.ToolCallID != b.ToolCallID ||
		len(a.ToolCalls) != len(b.ToolCalls) || !message.SameImages(a.Images, b.Images) {
		return false
	}
	for i := range a.ToolCalls {
		x, y := &a.ToolCalls[i], &b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || x.Arguments != y.Arguments {
			return false
		}
	}
	return true
}

// DigestBytes is the length of an identity hash and of a history digest
// in bytes (written as twice as many hex digits).
const DigestBytes = 16

// DigestOf returns the digest of a history given by its identity hashes:
// d(0) is 16 zero bytes, d(i+1) the first 16 bytes of SHA-256(d(i) ||
// hash i as 16 bytes), written as 32 hex digits. Two histories with the
// same digest hold the same messages in the same order (with SHA-256's
// odds), so a checkpoint names a history by its length and digest alone.
// A hash that is not 32 hex digits is hashed as zeros.
func DigestOf(hashes []string) string {
	var d [DigestBytes]byte
	for _, h := range hashes {
		d = chainNext(d, decodeHash(h))
	}
	return hex.EncodeToString(d[:])
}

func decodeHash(h string) [DigestBytes]byte {
	var id [DigestBytes]byte
	hex.Decode(id[:], []byte(h)) // a bad hash leaves zeros: it matches nothing real
	return id
}

func chainNext(prev, id [DigestBytes]byte) [DigestBytes]byte {
	var buf [2 * DigestBytes]byte
	copy(buf[:], prev[:])
	copy(buf[DigestBytes:], id[:])
	sum := sha256.Sum256(buf[:])
	var d [DigestBytes]byte
	copy(d[:], sum[:])
	return d
}

func writeFields(d hash.Hash, m *message.Message) {
	writeString(d, string(m.Role))
	writeString(d, m.Content)
	writeUint(d, uint64(len(m.ToolCalls)))
	for _, c := range m.ToolCalls {
		writeString(d, c.ID)
		writeString(d, c.Name)
		writeString(d, c.Arguments)
	}
	writeString(d, m.ToolCallID)
	writeUint(d, uint64(len(m.Images)))
	for _, img := range m.Images {
		// An image hashes as the reference string older files stored, so
		// their hashes stay; a file name follows it after "\n", which no
		// URL holds.
		if img.FileName == "" {
			writeString(d, img.Ref())
		} else {
			writeString(d, img.Ref()+"\n"+img.FileName)
		}
	}
}

func writeUint(d hash.Hash, n uint64) {
	var b [binary.MaxVarintLen64]byte
	d.Write(b[:binary.PutUvarint(b[:], n)])
}

func writeString(d hash.Hash, s string) {
	writeUint(d, uint64(len(s)))
	// The bytes are only read: no copy of a content of megabytes.
	d.Write(unsafe.Slice(unsafe.StringData(s), len(s)))
}
