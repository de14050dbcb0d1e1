package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

// Record types.
const (
	TypeMessage = "message"
	TypeRewrite = "rewrite"
	// TypeCheckpoints carries a conversation's whole checkpoint list
	// (package rewind's session-file form) as it stands after a change
	// that is not one checkpoint added (doc.go, "Checkpoints").
	TypeCheckpoints = "checkpoints"
)

// Rewrite reasons written by chatcli.
const (
	ReasonSync    = "sync"    // the history differs from the view for no known reason
	ReasonRepair  = "repair"  // message.Repair changed the history
	ReasonCompact = "compact" // a compaction replaced the middle
	ReasonRewind  = "rewind"  // a rewind dropped later messages
)

// Record is one line of a journal.
type Record struct {
	Type string `json:"type"`
	// Seq numbers the record in its journal, from 1 (see Pos); readers
	// set it for records written without it.
	Seq int64     `json:"seq,omitempty"`
	At  time.Time `json:"at"`
	// Hash and Message are set on message records.
	Hash    string           `json:"hash,omitempty"`
	Message *message.Message `json:"message,omitempty"`
	// Hashes and Reason are set on rewrite records; Prev is the length of
	// the view before the message records written with this rewrite, so
	// view[:Prev] just before the rewrite is the history it replaced.
	Reason string   `json:"reason,omitempty"`
	Hashes []string `json:"hashes,omitempty"`
	Prev   int      `json:"prev,omitempty"`
	// Checkpoints is set on checkpoints records: a JSON array.
	Checkpoints json.RawMessage `json:"checkpoints,omitempty"`
	// Checkpoint, on a message or rewrite record, is the checkpoint taken
	// with it (one JSON object of package rewind's list): the checkpoint
	// list after the record is the newest Kept checkpoints of the list
	// before it, then Checkpoint (CheckpointList.Apply; doc.go,
	// "Checkpoints").
	Checkpoint json.RawMessage `json:"checkpoint,omitempty"`
	Kept       int             `json:"kept,omitempty"`
}

// ErrCorrupt is wrapped by errors about a line that is not a record.
var ErrCorrupt = errors.New("journal: corrupt record")

// ErrChecksum is wrapped by errors about a record whose checksum does not
// match its bytes (bit rot, an edit by hand); it wraps ErrCorrupt.
var ErrChecksum = i18n.Errorf("%w: checksum mismatch", ErrCorrupt)

// checksumError is a record whose checksum member (stored) is not the
// CRC-32C of its bytes (computed); it wraps ErrChecksum.
type checksumError struct{ stored, computed string }

func (e *checksumError) Error() string { return e.Said().Error() }

func (e *checksumError) Unwrap() error { return ErrChecksum }

// Said implements i18n.Sayer.
func (e *checksumError) Said() error {
	return i18n.Errorf("%w (stored %s, computed %s)", ErrChecksum, e.stored, e.computed)
}

// reason is why the reader skips the record's line.
func (e *checksumError) reason() i18n.Text {
	return i18n.Textf("checksum mismatch (stored %s, computed %s)", e.stored, e.computed)
}

// The checksum member (doc.go, "Checksums"): the record's last member,
// `,"crc":"` + 8 lowercase hex digits + `"` before the closing brace.
const (
	crcOpen  = `,"crc":"`
	crcBytes = len(crcOpen) + 8 + len(`"}`) // from the member's comma to the line's end
)

// castagnoli is the CRC-32C table (Castagnoli polynomial, RFC 3720 §B.4;
// hash/crc32.Castagnoli), the checksum of journal records.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// recordCRC is the CRC-32C of body, a record's JSON without its checksum
// member (ending in "}").
func recordCRC(body []byte) uint32 { return crc32.Checksum(body, castagnoli) }

// EncodeRecord returns r as one line: its JSON encoding (no HTML escaping)
// with a last member "crc" holding the CRC-32C (Castagnoli) of that
// encoding as 8 lowercase hex digits, followed by "\n" (doc.go,
// "Checksums").
func EncodeRecord(r *Record) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // Encode appends the "\n"
		return nil, err
	}
	body := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	line := make([]byte, 0, len(body)+crcBytes+1)
	line = append(line, body[:len(body)-1]...) // without its "}"
	line = fmt.Appendf(line, crcOpen+"%08x\"}\n", recordCRC(body))
	return line, nil
}

// wireRecord is a record as read: the checksum member beside the record's
// own (encoding/json matches member names without regard to case, so a
// "CRC" member is caught too).
type wireRecord struct {
	Record
	CRC json.RawMessage `json:"crc"`
}

// DecodeRecord parses one line (without its "\n"). Errors wrap ErrCorrupt:
// not JSON, a checksum member not in the form EncodeRecord writes or whose
// CRC-32C does not match the line (ErrChecksum), an unknown type, a
// record missing what its type needs, or checkpoint bookkeeping that is
// not a checkpoint added to a message or rewrite record. A line without a checksum member
// (written before records carried one) is accepted unchecked. The raw JSON
// members ("checkpoints", "checkpoint") are returned in the form the record
// format writes them, without whitespace (doc.go, "Checksums": encoding/json
// compacts a json.RawMessage it encodes), so that a record decoded and
// encoded again decodes to the same record; the checksum covers the line as
// it was read.
func DecodeRecord(line []byte) (Record, error) {
	var w wireRecord
	if err := json.Unmarshal(line, &w); err != nil {
		return Record{}, i18n.Errorf("%w: %v", ErrCorrupt, i18n.JSONError(err, line))
	}
	r := w.Record
	r.Checkpoints, r.Checkpoint = compactRaw(r.Checkpoints), compactRaw(r.Checkpoint)
	if w.CRC != nil {
		if err := checkCRC(line); err != nil {
			return Record{}, err
		}
	}
	switch r.Type {
	case TypeMessage:
		if r.Message == nil || len(r.Hash) != 32 {
			return r, i18n.Errorf("%w: message record without message or hash", ErrCorrupt)
		}
	case TypeRewrite:
		for _, h := range r.Hashes {
			if len(h) != 32 {
				return r, i18n.Errorf("%w: rewrite record with a bad hash", ErrCorrupt)
			}
		}
	case TypeCheckpoints:
		if len(r.Checkpoints) == 0 || r.Checkpoints[0] != '[' {
			return r, i18n.Errorf("%w: checkpoints record without a list", ErrCorrupt)
		}
	default:
		return r, i18n.Errorf("%w: unknown record type %q", ErrCorrupt, r.Type)
	}
	switch {
	case r.Checkpoint != nil && (r.Type == TypeCheckpoints || r.Checkpoint[0] != '{'):
		return r, i18n.Errorf("%w: a checkpoint added that is not an object on a message or rewrite record", ErrCorrupt)
	case r.Kept < 0 || r.Kept > 0 && r.Checkpoint == nil:
		return r, i18n.Errorf("%w: \"kept\" is %d, not the count of checkpoints kept before a checkpoint added", ErrCorrupt, r.Kept)
	}
	return r, nil
}

// compactRaw returns raw, a JSON value encoding/json accepted, without
// whitespace between its tokens (json.Compact); raw itself when it holds
// no whitespace byte at all.
func compactRaw(raw json.RawMessage) json.RawMessage {
	if !bytes.ContainsAny(raw, " \t\r\n") {
		return raw
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw // not reached: Unmarshal checked it
	}
	return b.Bytes()
}

// checkCRC checks the checksum member that ends line: its form, then the
// CRC-32C of the line without it.
func checkCRC(line []byte) error {
	n := len(line)
	if n < crcBytes+2 || !bytes.Equal(line[n-crcBytes:n-crcBytes+len(crcOpen)], []byte(crcOpen)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return i18n.Errorf("%w: the checksum member is not the record's last member in the form \"crc\":\"<8 hex>\"", ErrCorrupt)
	}
	digits := line[n-10 : n-2]
	if !lowerHex(digits) {
		return i18n.Errorf("%w: the checksum %q is not 8 lowercase hex digits", ErrCorrupt, string(digits))
	}
	want, _ := strconv.ParseUint(string(digits), 16, 32)
	if got := crc32.Update(recordCRC(line[:n-crcBytes]), castagnoli, []byte("}")); got != uint32(want) {
		return &checksumError{stored: string(digits), computed: fmt.Sprintf("%08x", got)}
	}
	return nil
}

func lowerHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
