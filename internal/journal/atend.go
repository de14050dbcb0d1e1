// A position at the end of a journal: is it still where it says?

package journal

import (
	"bytes"

	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// endChunkBytes is how much of a journal endsRecord reads at a time,
// backwards from a position, to find the start of the line ending there.
const endChunkBytes = 4 << 10

// endsRecord reports whether the line of the journal at path that ends at
// pos.Offset (its "\n" the byte before it) holds the record numbered
// pos.Seq, its sealed line opened with key. A scan from a position after
// which it reads no record cannot tell otherwise whether the position is
// still good: a journal rewritten since (repaired, whose damaged lines
// were left out) may end exactly at the old offset with records numbered
// after pos.Seq before it. False (the caller then reads from the top) when
// the line is not a record, not one numbered pos.Seq (a stray line ends
// there, or its record was written without a number), or cannot be read.
func endsRecord(path string, key seal.Key, pos Pos) bool {
	if pos.Offset <= 0 || pos.Seq <= 0 {
		return false
	}
	f, _, err := storefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	end := pos.Offset - 1 // the "\n" ending the line
	var line []byte
	for start := end; ; {
		from := max(start-endChunkBytes, 0)
		chunk := make([]byte, start-from)
		if _, err := f.ReadAt(chunk, from); err != nil {
			return false
		}
		line = append(chunk, line...)
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			line = line[i+1:]
			break
		}
		if from == 0 {
			break
		}
		start = from
	}
	o := &lineOpener{key: key, path: path, name: LineName(idOf(path))}
	rec, reason := o.readLine(line, true)
	return reason.IsZero() && rec.Type != "" && rec.Seq == pos.Seq
}
