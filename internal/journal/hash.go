package journal

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"

	"github.com/chatcli/chatcli/internal/message"
)

// HashHistory returns the identity hash of every message of h, in order
// (see the package doc: fields, occurrence number, 32 hex digits).
func HashHistory(h []message.Message) []string {
	out := make([]string, len(h))
	seen := make(map[[sha256.Size]byte]uint64, len(h))
	d := sha256.New()
	for i := range h {
		d.Reset()
		writeFields(d, &h[i])
		var base [sha256.Size]byte
		d.Sum(base[:0])
		n := seen[base]
		seen[base] = n + 1
		d.Reset()
		d.Write(base[:])
		writeUint(d, n)
		var sum [sha256.Size]byte
		out[i] = hex.EncodeToString(d.Sum(sum[:0])[:16])
	}
	return out
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
		writeString(d, img)
	}
}

func writeUint(d hash.Hash, n uint64) {
	var b [binary.MaxVarintLen64]byte
	d.Write(b[:binary.PutUvarint(b[:], n)])
}

func writeString(d hash.Hash, s string) {
	writeUint(d, uint64(len(s)))
	d.Write([]byte(s))
}
