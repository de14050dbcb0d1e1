// Package rewind keeps the checkpoints a conversation can step back to.
//
// A checkpoint is taken before each LLM call and records the history as it
// was just before the prompt that started the call: its time, the prompt
// (clipped to PromptChars characters), the ordered identity hashes of its
// messages (journal.HashHistory) and, in agent and coder modes, the id of
// the file checkpoint taken at the same moment (internal/shadow: 40 hex
// digits naming the state of the files the tools touched). Checkpoints name messages by hash, never
// by position, so messages inserted later (a summary, a repair notice) never
// shift them. At most MaxCheckpoints are kept, oldest dropped first.
//
// In a session file they are the "checkpoints" member, a JSON array, oldest
// first:
//
//	[{"at":"2026-11-30T14:32:05Z","prompt":"implement the refresh endpoint","messages":28,"hashes":["<32 hex>",…],"code":"<40 hex>","workspace":"/home/me/project"}]
//
// "code" is absent for a checkpoint taken in chat mode, without git, or by
// a version without file checkpoints: such a checkpoint restores the
// conversation only. "workspace" is the folder "code" was taken in; code
// is restored only there.
//
// Restoring a checkpoint needs the message of every hash: they come from the
// live history and, for messages a compaction or rewind removed since, from
// the journal (Resolve). A checkpoint that cannot be resolved is dropped
// with a notice.
package rewind

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// MaxCheckpoints is how many checkpoints a conversation keeps.
const MaxCheckpoints = 20

// PromptChars is the length of a checkpoint's prompt label, in characters.
const PromptChars = 60

// Checkpoint is the state of a conversation just before an LLM call.
type Checkpoint struct {
	At       time.Time `json:"at"`
	Prompt   string    `json:"prompt"`
	Messages int       `json:"messages"` // len(Hashes), for display
	Hashes   []string  `json:"hashes"`
	// Code is the shadow checkpoint id of the workspace's files at the same
	// moment (shadow.Repo.Checkpoint); "" when none was taken.
	Code string `json:"code,omitempty"`
	// Workspace is the absolute path of the folder Code was taken in; ""
	// when Code is. Code ids are per workspace, so restoring one anywhere
	// else is refused.
	Workspace string `json:"workspace,omitempty"`
}

// Take returns list with a checkpoint of history (the state before prompt)
// and of the files (code, a shadow checkpoint id or "") appended, at most
// MaxCheckpoints long. A conversation state equal to the newest
// checkpoint's replaces it (after a rewind, the next call starts from it),
// and the new one carries the fresh code id: the files may have changed
// since.
func Take(list []Checkpoint, history []message.Message, prompt, code string, at time.Time) []Checkpoint {
	cp := Checkpoint{At: at.UTC(), Prompt: message.Clip(prompt, PromptChars), Messages: len(history),
		Hashes: journal.HashHistory(history), Code: code}
	if n := len(list); n > 0 && slices.Equal(list[n-1].Hashes, cp.Hashes) {
		list = list[:n-1]
	}
	list = append(slices.Clip(list), cp)
	if len(list) > MaxCheckpoints {
		list = list[len(list)-MaxCheckpoints:]
	}
	return list
}

// Merge returns the union of two checkpoint lists of one conversation
// (the two sides of a merged history): theirs, then the checkpoints of ours
// theirs lacks, ordered by At (stable, so equal times keep that order), the
// oldest dropped beyond MaxCheckpoints. A checkpoint in both (every field
// equal: taken before the two sides parted) is kept once.
func Merge(theirs, ours []Checkpoint) []Checkpoint {
	key := func(cp Checkpoint) string { // every field: two prompts sent from one state are two checkpoints
		return strings.Join(append([]string{cp.At.UTC().Format(time.RFC3339Nano), cp.Prompt, cp.Code}, cp.Hashes...), "\x00")
	}
	seen := make(map[string]bool, len(theirs))
	out := slices.Clone(theirs)
	for _, cp := range theirs {
		seen[key(cp)] = true
	}
	for _, cp := range ours {
		if !seen[key(cp)] {
			seen[key(cp)] = true
			out = append(out, cp)
		}
	}
	slices.SortStableFunc(out, func(a, b Checkpoint) int { return a.At.Compare(b.At) })
	if len(out) > MaxCheckpoints {
		out = out[len(out)-MaxCheckpoints:]
	}
	return out
}

// Encode returns the session-file form of list; nil for an empty list.
func Encode(list []Checkpoint) (json.RawMessage, error) {
	if len(list) == 0 {
		return nil, nil
	}
	return json.Marshal(list)
}

// Decode parses the session-file form; empty input gives no checkpoints.
// Entries that are not checkpoints (another program's format) are an error
// naming the position.
func Decode(raw json.RawMessage) ([]Checkpoint, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []Checkpoint
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("rewind: checkpoints: %w", err)
	}
	for i, cp := range list {
		if cp.Messages != len(cp.Hashes) {
			return nil, fmt.Errorf("rewind: checkpoint %d: %d messages but %d hashes", i+1, cp.Messages, len(cp.Hashes))
		}
	}
	return list, nil
}

// Known maps message hashes to messages.
type Known map[string]message.Message

// AddHistory adds the messages of a history under their hashes.
func (k Known) AddHistory(h []message.Message) {
	for i, hsh := range journal.HashHistory(h) {
		k[hsh] = h[i]
	}
}

// Has reports whether every hash of cp is known.
func (k Known) Has(cp Checkpoint) bool {
	for _, h := range cp.Hashes {
		if _, ok := k[h]; !ok {
			return false
		}
	}
	return true
}

// Resolve returns the history of cp, or false when a message is unknown.
func (k Known) Resolve(cp Checkpoint) ([]message.Message, bool) {
	out := make([]message.Message, 0, len(cp.Hashes))
	for _, h := range cp.Hashes {
		m, ok := k[h]
		if !ok {
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}
