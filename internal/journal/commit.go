package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// ErrRewriteConflict is returned by Commit when this handle's history and
// another process's both rewrote (compacted, rewound, repaired) the history
// this handle last saw: the two cannot both be the view. Nothing was
// appended; the error is a *RewriteConflict carrying the other side.
var ErrRewriteConflict = errors.New("journal: rewritten by two processes")

// RewriteConflict is the error of Commit for two rewrites of one base.
type RewriteConflict struct {
	Path string
	// Theirs is the history the journal holds now (the other rewrite).
	Theirs []message.Message
}

func (e *RewriteConflict) Error() string {
	return fmt.Sprintf("%v: %s", ErrRewriteConflict, e.Path)
}

// Unwrap makes errors.Is(err, ErrRewriteConflict) hold.
func (e *RewriteConflict) Unwrap() error { return ErrRewriteConflict }

// Commit is the result of a Commit.
type Commit struct {
	// History is the live history now: h as given, or, when other
	// processes appended since this handle last read or wrote, h with
	// their records taken in (see Journal.Commit).
	History []message.Message
	// Adopted counts the messages that came from other processes; 0 when
	// History is h.
	Adopted int
	// Appended counts the records written.
	Appended int
	// Checkpoints is the checkpoint list as the records other processes
	// appended since this handle last read leave it (a checkpoints
	// record, or checkpoints added to the list this handle knew), nil
	// when none of them changed it.
	Checkpoints json.RawMessage
}

// Commit records the live history h like Sync, after taking in, under the
// journal's lock, what other processes appended since this handle last
// read or wrote (its base view B). c keeps the hashes of h (Hashes.Of);
// it is used for the result too, so only new messages are hashed. With
// the other processes' records read, the journal's view is V:
//
//   - V = B (nobody else wrote): h is recorded as Sync does.
//   - V = B + X (others only appended) and h = B + M (this side only
//     appended): the view becomes B + X + M, so appends of two windows
//     interleave in journal order, turn by turn; but when B ends inside
//     this side's turn (a prompt or tool calls awaiting the reply or the
//     results), B + M + X, so a turn's messages stay together and a tool
//     call keeps its results; and whichever order message.Validate
//     refuses, the other (a rewrite record then says where). After an
//     append of this handle failed (its write may have landed), messages
//     M starts with that X already starts with are not added again, so a
//     retried commit is harmless; otherwise identical messages of two
//     windows are two messages.
//   - V = B + X and h rewrote B: h + X (this rewrite, then their
//     messages).
//   - V rewrote B and h = B + M: V + M (their rewrite, then this side's
//     messages, after those of the turn under way at the end of B that
//     the rewrite dropped).
//   - V and h both rewrote B: a *RewriteConflict (ErrRewriteConflict)
//     holding V's history; nothing is written.
//
// Errors: those of Sync, and ErrRewriteConflict.
//
// cps, when not nil, gives this side's checkpoint list (package rewind's
// session-file form) from the list other processes' records left
// (theirs, nil when none changed it; see Commit.Checkpoints), under the
// lock; it is recorded with the other records when it differs from the
// journal's (see doc.go, "Checkpoints").
func (j *Journal) Commit(h []message.Message, c *Hashes, reason string, cps func(theirs json.RawMessage) json.RawMessage) (Commit, error) {
	lock, locked, err := lockFile(j.path)
	if err != nil {
		return Commit{}, err
	}
	defer lock.Unlock()
	base, unread := j.view, j.pos == top // unread: nothing read yet, so nobody wrote "since"
	if !j.sameFile(locked) {
		j.moved = true
	}
	var theirs []Record
	var theirCps json.RawMessage
	cpsChanged := false
	if _, err := j.refresh(func(r Record) {
		cpsChanged = cpsChanged || r.Type == TypeCheckpoints || r.Checkpoint != nil
		if r.Type != TypeCheckpoints {
			theirs = append(theirs, r)
		}
	}); err != nil {
		return Commit{}, err
	}
	if cpsChanged {
		theirCps = j.checkpoints.JSON()
	}
	var list json.RawMessage
	if cps != nil {
		list = cps(theirCps)
	}
	hashes := c.Of(h)
	switch {
	case unread:
		base = j.view
	case j.rebased != nil: // the file was replaced: compare with what it says of the old position
		base = j.rebased
	}
	if slices.Equal(base, j.view) {
		n, err := j.recordWith(h, hashes, reason, list)
		if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
			return Commit{}, err
		}
		if err == nil {
			j.unsure = false
		}
		return Commit{History: h, Appended: n, Checkpoints: theirCps}, err
	}
	v, err := j.resolveView(h, hashes, theirs)
	if err != nil {
		return Commit{}, err
	}
	prefix := func(l []string) bool { return len(l) >= len(base) && slices.Equal(l[:len(base)], base) }
	theyAppended, weAppended := prefix(j.view), prefix(hashes)
	var next []message.Message
	adopted := len(v)
	switch {
	case theyAppended && weAppended: // B + X and B + M
		// What M starts with that X already holds is not ours to add
		// again (a commit whose write landed unnoticed, or a handle that
		// had not read the journal yet).
		x, m := j.view[len(base):], hashes[len(base):]
		k := 0
		for j.unsure && k < len(x) && k < len(m) && x[k] == m[k] {
			k++
		}
		adopted = len(x) - k
		interleaved, after := slices.Concat(v, h[len(base)+k:]), slices.Concat(h, v[len(base)+k:])
		alt := after
		next = interleaved
		if midTurn(h[:len(base)]) {
			next, alt = after, interleaved // this side's turn is under way: its messages stay together
		}
		if message.Validate(next) != nil && message.Validate(alt) == nil {
			next = alt
		}
	case theyAppended: // B + X and a rewrite of B
		adopted = len(v) - len(base)
		next = slices.Concat(h, v[len(base):])
	case weAppended: // a rewrite of B and B + M
		// The turn under way at the end of B goes on: what of it the
		// rewrite dropped comes back before M.
		from := len(base)
		if midTurn(h[:len(base)]) {
			in := make(map[string]bool, len(j.view))
			for _, hsh := range j.view {
				in[hsh] = true
			}
			for from > 0 && midTurn(h[:from]) && !in[hashes[from-1]] {
				from--
			}
		}
		next = slices.Concat(v, h[from:])
	default:
		return Commit{}, &RewriteConflict{Path: j.path, Theirs: v}
	}
	n, err := j.recordWith(next, c.Of(next), reason, list)
	if err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return Commit{}, err
	}
	if err == nil {
		j.unsure = false
	}
	return Commit{History: next, Adopted: adopted, Appended: n, Checkpoints: theirCps}, err
}

// midTurn reports whether h ends inside a turn: a prompt, a tool result or
// tool calls awaiting the rest of the turn (anything but a final reply).
func midTurn(h []message.Message) bool {
	if len(h) == 0 {
		return false
	}
	last := h[len(h)-1]
	return last.Role != message.RoleAssistant || len(last.ToolCalls) > 0
}

// resolveView returns the messages of the current view, taken from h (whose
// copies carry the live meta), the records just read, or else the whole
// journal (a rewind elsewhere may bring back messages only it holds).
func (j *Journal) resolveView(h []message.Message, hashes []string, read []Record) ([]message.Message, error) {
	have := make(map[string]*message.Message, len(hashes)+len(read))
	for _, r := range read {
		if r.Type == TypeMessage {
			have[r.Hash] = r.Message
		}
	}
	for i, hsh := range hashes {
		have[hsh] = &h[i]
	}
	var missing []string
	for _, hsh := range j.view {
		if have[hsh] == nil {
			missing = append(missing, hsh)
		}
	}
	if len(missing) > 0 {
		found, err := messagesByHash(j.path, j.key, missing)
		if err != nil {
			return nil, err
		}
		for hsh, m := range found {
			have[hsh] = m
		}
	}
	out := make([]message.Message, 0, len(j.view))
	for _, hsh := range j.view {
		m := have[hsh]
		if m == nil {
			return nil, i18n.Errorf("%w: %s: the view names message %s, which no record holds", ErrCorrupt, j.path, hsh)
		}
		out = append(out, *m)
	}
	return out, nil
}

// Pos is the position just past the last record this handle read or
// wrote.
func (j *Journal) Pos() Pos { return j.pos }

// View returns the identity hashes of the history as last recorded; the
// caller must not modify it.
func (j *Journal) View() []string { return j.view }

// OpenAt opens journal id under dir for a history that is known to be its
// view at position pos (a session snapshot's journal_pos, and the hashes
// of the snapshot's history): nothing before pos is read. The first read
// checks that pos still names the record after it (with no record after
// it, that the line ending at pos holds the record numbered pos.Seq:
// endsRecord); when the journal's
// lines moved since (it was sealed, rekeyed or repaired) the handle reads
// the journal from the top instead. The checkpoint list at pos is not
// read either: cps is the one the snapshot holds there (a JSON array in
// package rewind's form; nil for none), taken as the journal's without
// being known to be, so a sync that changes neither the history nor that
// list writes nothing, and the handle's first change is recorded with the
// list whole (doc.go, "Checkpoints"). Errors: an invalid id (see Open);
// the folder cannot be created.
func OpenAt(dir, id string, key seal.Key, pos Pos, view []string, cps json.RawMessage) (*Journal, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("journal: invalid id %q", id)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal: create %s: %w", dir, err)
	}
	j := &Journal{id: id, path: Path(dir, id), now: time.Now, key: key}
	j.reset()
	if pos.Seq <= 0 {
		return j, nil
	}
	if pos.Line < 1 {
		pos.Line = 1
	}
	st, err := os.Lstat(j.path)
	if err != nil {
		return j, nil // no journal (any more): the first read starts at the top
	}
	j.pos, j.file, j.placed = pos, st, true
	// What the checkpoint list is at pos, the records before it say.
	j.checkpoints, j.cpsKnown = NewCheckpointList(slices.Clone(cps)), false
	j.view = slices.Clone(view)
	for _, h := range view {
		j.known[h] = struct{}{}
	}
	return j, nil
}
