package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

// Record types.
const (
	TypeMessage = "message"
	TypeRewrite = "rewrite"
	// TypeCheckpoints carries a conversation's checkpoint list (package
	// rewind's session-file form) as it stands after a change; the last
	// one read wins over the snapshot's.
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
}

// ErrCorrupt is wrapped by errors about a line that is not a record.
var ErrCorrupt = errors.New("journal: corrupt record")

// EncodeRecord returns r as one line: its JSON encoding (no HTML escaping)
// followed by "\n".
func EncodeRecord(r *Record) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // Encode appends the "\n"
		return nil, err
	}
	return b.Bytes(), nil
}

// DecodeRecord parses one line (without its "\n"). Errors wrap ErrCorrupt:
// not JSON, an unknown type, or a record missing what its type needs.
func DecodeRecord(line []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return r, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	switch r.Type {
	case TypeMessage:
		if r.Message == nil || len(r.Hash) != 32 {
			return r, fmt.Errorf("%w: message record without message or hash", ErrCorrupt)
		}
	case TypeRewrite:
		for _, h := range r.Hashes {
			if len(h) != 32 {
				return r, fmt.Errorf("%w: rewrite record with a bad hash", ErrCorrupt)
			}
		}
	case TypeCheckpoints:
		if len(r.Checkpoints) == 0 || r.Checkpoints[0] != '[' {
			return r, fmt.Errorf("%w: checkpoints record without a list", ErrCorrupt)
		}
	default:
		return r, fmt.Errorf("%w: unknown record type %q", ErrCorrupt, r.Type)
	}
	return r, nil
}
