package journal

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Checkpoint bookkeeping (doc.go, "Checkpoints"): a journal records a
// conversation's checkpoint list (package rewind's form, a JSON array of
// objects, oldest first) either whole, in a checkpoints record, or as one
// checkpoint added, in the "checkpoint" and "kept" members of the message
// or rewrite record it was taken with. The journal knows nothing of a
// checkpoint's fields: entries are compared byte for byte.

// CheckpointList is a conversation's checkpoint list as a journal's
// records build it, read from some starting list (a session file's
// "checkpoints", or none at the top of a journal). The zero value is the
// empty list.
type CheckpointList struct {
	// raw is the list as last set whole, while entries is not parsed.
	raw json.RawMessage
	// entries is the list split into one JSON value per checkpoint,
	// oldest first, once parsed is set.
	entries []json.RawMessage
	parsed  bool
}

// NewCheckpointList returns the list raw holds: a JSON array in package
// rewind's form, or nil for none. raw is parsed only when a record adds
// to it; a raw that is not an array then counts as empty.
func NewCheckpointList(raw json.RawMessage) CheckpointList {
	return CheckpointList{raw: raw}
}

// Apply brings l up to date with record r: a checkpoints record replaces
// the list, a record with a "checkpoint" member keeps the newest Kept
// entries (all of them when Kept is larger) and appends that checkpoint.
// It reports whether r carried checkpoint bookkeeping.
func (l *CheckpointList) Apply(r *Record) bool {
	switch {
	case r.Type == TypeCheckpoints:
		*l = CheckpointList{raw: r.Checkpoints}
		return true
	case r.Checkpoint != nil:
		l.add(r.Checkpoint, r.Kept)
		return true
	}
	return false
}

// add keeps the newest kept entries and appends cp.
func (l *CheckpointList) add(cp json.RawMessage, kept int) {
	l.parse()
	kept = min(max(kept, 0), len(l.entries))
	l.entries = append(slices.Clone(l.entries[len(l.entries)-kept:]), cp)
}

// parse splits raw into entries, once.
func (l *CheckpointList) parse() {
	if l.parsed {
		return
	}
	l.entries, l.parsed = splitList(l.raw), true
	l.raw = nil
}

// JSON returns the list in package rewind's form: the bytes it was set
// from when no record added to it since (nil for none), otherwise a
// JSON array of its entries.
func (l *CheckpointList) JSON() json.RawMessage {
	if !l.parsed {
		return l.raw
	}
	return joinList(l.entries)
}

// Equal reports whether l holds exactly the checkpoints of raw (a JSON
// array; nil and "[]" are the empty list), entry by entry.
func (l *CheckpointList) Equal(raw json.RawMessage) bool {
	same, _, _, _ := l.change(raw)
	return same
}

// change compares the list raw with l: same when it holds the same
// entries; otherwise added when it is l with one checkpoint added
// (Apply's rule: its last entry, cp, after the newest kept entries of
// l).
func (l *CheckpointList) change(raw json.RawMessage) (same bool, cp json.RawMessage, kept int, added bool) {
	if !l.parsed && bytes.Equal(l.raw, raw) {
		return true, nil, 0, false
	}
	l.parse()
	next := splitList(raw)
	if slices.EqualFunc(l.entries, next, sameEntry) {
		return true, nil, 0, false
	}
	kept = len(next) - 1
	if kept < 0 || kept > len(l.entries) || !slices.EqualFunc(next[:kept], l.entries[len(l.entries)-kept:], sameEntry) {
		return false, nil, 0, false
	}
	return false, next[kept], kept, true
}

// sameEntry reports whether two checkpoints are written with the same
// bytes.
func sameEntry(a, b json.RawMessage) bool { return bytes.Equal(a, b) }

// splitList returns the elements of the JSON array raw, each as the bytes
// it was written with; nil when raw is not an array of objects.
func splitList(raw json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &out) != nil {
		return nil
	}
	for _, e := range out {
		if len(e) == 0 || e[0] != '{' {
			return nil
		}
	}
	return out
}

// joinList returns entries as one JSON array.
func joinList(entries []json.RawMessage) json.RawMessage {
	n := 2
	for _, e := range entries {
		n += len(e) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

// HoldsCheckpoints reports whether raw (a JSON array in package rewind's
// form) may be named as the checkpoint list at Pos, for a session file
// naming that position: the list the records read and written leave, or
// any list while the handle does not know the journal's (positioned by
// OpenAt at a file that holds it, with no list read whole since), as its
// next change of the list is then recorded whole.
func (j *Journal) HoldsCheckpoints(raw json.RawMessage) bool {
	return !j.cpsKnown || j.checkpoints.Equal(raw)
}
