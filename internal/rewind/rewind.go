// Package rewind keeps the checkpoints a conversation can step back to.
//
// A checkpoint is taken before each LLM call and records the history as it
// was just before the prompt that started the call: its time, the prompt
// (clipped to PromptChars characters), the number of its messages and
// their digest (journal.DigestOf: a chain of the messages' identity
// hashes, 32 hex digits) and, in agent and coder modes, the id of the file
// checkpoint taken at the same moment (internal/shadow: 40 hex digits
// naming the state of the files the tools touched). A checkpoint costs the
// same few dozen bytes whatever the length of the history. It names no
// byte position in the journal: sealing, rekeying and repairing a journal
// rewrite its lines, and the digest finds the history in any of them. At
// most MaxCheckpoints are kept, oldest dropped first.
//
// In a session file they are the "checkpoints" member, a JSON array, oldest
// first:
//
//	[{"at":"2026-11-30T14:32:05Z","prompt":"implement the refresh endpoint","messages":28,"digest":"<32 hex>","code":"<40 hex>","workspace":"/home/me/project"}]
//
// "code" is absent for a checkpoint taken in chat mode, without git, or by
// a version without file checkpoints: such a checkpoint restores the
// conversation only. "workspace" is the folder "code" was taken in; code
// is restored only there. Checkpoints written before digests existed list
// the hashes of every message ("hashes"); they are read, their digest
// computed from the list, and written back in the short form.
//
// Restoring a checkpoint needs its messages: they are the first Messages
// messages of the live history when its digest there matches, and
// otherwise (a compaction or rewind removed them since) come from the
// journal (journal.Resolve). A checkpoint that cannot be resolved is
// dropped with a notice.
package rewind

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
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
	At     time.Time `json:"at"`
	Prompt string    `json:"prompt"`
	// Messages is the length of the history; Digest its digest
	// (journal.DigestOf of the first Messages identity hashes).
	Messages int    `json:"messages"`
	Digest   string `json:"digest"`
	// Code is the shadow checkpoint id of the workspace's files at the same
	// moment (shadow.Repo.Checkpoint); "" when none was taken.
	Code string `json:"code,omitempty"`
	// Workspace is the absolute path of the folder Code was taken in; ""
	// when Code is. Code ids are per workspace, so restoring one anywhere
	// else is refused.
	Workspace string `json:"workspace,omitempty"`
}

// Prefix is the history the checkpoint names, as journal.Resolve takes it.
func (cp Checkpoint) Prefix() journal.Prefix {
	return journal.Prefix{Messages: cp.Messages, Digest: cp.Digest}
}

// Take returns list with a checkpoint of a history of n messages whose
// digest is digest (the state before prompt) and of the files (code, a
// shadow checkpoint id or "") appended, at most MaxCheckpoints long. A
// conversation state equal to the newest checkpoint's replaces it (after a
// rewind, the next call starts from it), and the new one carries the fresh
// code id: the files may have changed since.
func Take(list []Checkpoint, n int, digest, prompt, code string, at time.Time) []Checkpoint {
	cp := Checkpoint{At: at.UTC(), Prompt: message.Clip(prompt, PromptChars), Messages: n, Digest: digest, Code: code}
	if k := len(list); k > 0 && list[k-1].Messages == n && list[k-1].Digest == digest {
		list = list[:k-1]
	}
	list = append(slices.Clip(list), cp)
	if len(list) > MaxCheckpoints {
		list = list[len(list)-MaxCheckpoints:]
	}
	return list
}

// Merge returns the union of two checkpoint lists of one conversation
// (the two sides of a merged history): theirs, then the checkpoints of ours
// theirs lacks, ordered by At (equal times by their other fields, so the
// result does not depend on which list is theirs), the oldest dropped
// beyond MaxCheckpoints. A checkpoint in both (every field
// equal: taken before the two sides parted) is kept once.
func Merge(theirs, ours []Checkpoint) []Checkpoint {
	key := func(cp Checkpoint) string { // every field: two prompts sent from one state are two checkpoints
		return strings.Join([]string{cp.At.UTC().Format(time.RFC3339Nano), cp.Prompt, cp.Code, cp.Digest, strconv.Itoa(cp.Messages)}, "\x00")
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
	slices.SortStableFunc(out, func(a, b Checkpoint) int { // by time, then every field: Merge(x, y) = Merge(y, x)
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return strings.Compare(key(a), key(b))
	})
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
// A checkpoint in the older form (every hash listed, no digest) gets the
// digest of its list. Entries that are not checkpoints (another program's
// format: neither a digest nor hashes, or a count that disagrees with
// the hashes) are an error naming the position.
func Decode(raw json.RawMessage) ([]Checkpoint, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var stored []struct {
		Checkpoint
		Hashes []string `json:"hashes"`
	}
	if err := json.Unmarshal(raw, &stored); err != nil {
		return nil, fmt.Errorf("rewind: checkpoints: %w", err)
	}
	list := make([]Checkpoint, len(stored))
	for i, st := range stored {
		cp := st.Checkpoint
		switch {
		case cp.Digest == "" && st.Hashes != nil:
			if cp.Messages != len(st.Hashes) {
				return nil, fmt.Errorf("rewind: checkpoint %d: %d messages but %d hashes", i+1, cp.Messages, len(st.Hashes))
			}
			cp.Digest = journal.DigestOf(st.Hashes)
		case len(cp.Digest) != 2*journal.DigestBytes:
			return nil, fmt.Errorf("rewind: checkpoint %d: no digest of its history", i+1)
		}
		if cp.Messages < 0 {
			return nil, fmt.Errorf("rewind: checkpoint %d: %d messages", i+1, cp.Messages)
		}
		list[i] = cp
	}
	return list, nil
}
