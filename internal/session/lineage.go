package session

import (
	"encoding/json"
	"time"
)

// Kinds of Lineage: how a session came out of its parent.
const (
	LineageFork     = "fork"     // /session fork, session fork (also --at, --checkpoint)
	LineageConflict = "conflict" // the conflict fork NAME.conflict-… of a rewrite conflict
	LineageAttach   = "attach"   // /session attach NEW from a bound session
	LineageSave     = "save"     // /session save NEW from a bound session
)

// Lineage says where a session came from: the session it was made from
// and how far into that session's conversation. It is the "lineage"
// member of the header (doc.go), written only for sessions made from
// another one; ChatCLI ignores it, as every member it does not know.
type Lineage struct {
	// Parent is the parent session's name when the session was made.
	Parent string `json:"parent"`
	// ParentTranscript is the parent's transcript_id then, "" with the
	// journal off: a rename keeps it, so the parent is found under its
	// new name.
	ParentTranscript string `json:"parent_transcript,omitempty"`
	// At is how many messages of the parent's conversation the session
	// started from (the fork holds them, as the parent numbered them).
	At int `json:"at"`
	// Kind is one of LineageFork, LineageConflict, LineageAttach,
	// LineageSave; other values are shown as they are.
	Kind string `json:"kind"`
	// CreatedAt is when the session was made from its parent.
	CreatedAt time.Time `json:"created_at,omitzero"`
}

// decodeLineage is the lineage member raw, nil when absent, null or not
// a lineage (a damaged member is dropped, never a reason to refuse the
// file: it only serves `session tree`).
func decodeLineage(raw []byte) *Lineage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var l Lineage
	if json.Unmarshal(raw, &l) != nil || l.Parent == "" {
		return nil
	}
	return &l
}

// appendLineage appends the lineage member of l to a header being
// encoded; nothing for nil.
func appendLineage(b []byte, l *Lineage) []byte {
	if l == nil || l.Parent == "" {
		return b
	}
	raw, err := json.Marshal(l)
	if err != nil {
		return b // strings, an int and a time always encode
	}
	b = append(b, ",\n\"lineage\":"...)
	return append(b, raw...)
}
