package session

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/storefile"
)

// LinksDirName is the folder, inside the journal folder, of the links that
// tie a session's name to its journal. ChatCLI shares the sessions folder
// and rewrites a file with only the members it knows (version, title,
// chat_history, the per-mode arrays): transcript_id, journal_pos,
// revision, the times, checkpoints and the meta fields only chatcli writes
// are gone. So every save of a session with a journal also keeps, where
// ChatCLI never writes, links/<name>.json:
//
//	{"transcript_id":"<journal id>","created_at":"<RFC 3339>","revision":<n>,
//	 "meta":{"<identity hash>":{"unanswered":true,…},…}}
//
// revision is a revision no save of the name has reached yet: it is
// written linkRevisionStep revisions ahead when a save reaches the one
// recorded, so the link is rewritten once every linkRevisionStep saves,
// not at each. A save of a file without a revision (ChatCLI wrote it, or
// there is none yet) continues above it, so the name's revisions only
// grow across ChatCLI's rewrites (save).
//
// A session without a journal (CHATCLI_SESSION_TRANSCRIPT=false) has a
// link too, with no transcript_id, kept for its revision alone; a link
// that names a journal keeps naming it (the name's earlier session, or
// this one's before ChatCLI's rewrite, which relink ties back). Builds
// before this one ignore a link without transcript_id.
//
// meta holds, by the message's identity hash (journal.HashHistory), the
// meta of the messages that carry fields ChatCLI drops (unanswered,
// repair, tool_error, unknown ones); it is written only when it changes.
// Load re-links a file that has no transcript_id (relink).
const LinksDirName = "links"

// linkRevisionStep is how far ahead of a save the link's revision is
// written.
const linkRevisionStep = 64

// link is the content of a link file.
type link struct {
	TranscriptID string                   `json:"transcript_id,omitempty"`
	CreatedAt    time.Time                `json:"created_at"`
	Revision     int64                    `json:"revision,omitempty"`
	Meta         map[string]*message.Meta `json:"meta,omitempty"`
}

// LinkPath is the link file of session name under the journal folder dir.
func LinkPath(dir, name string) string { return filepath.Join(dir, LinksDirName, name+fileExt) }

// LinkedJournal returns the journal id the link of session name under the
// journal folder dir records, or "" when it has none or it cannot be read.
func LinkedJournal(dir, name string) string {
	l, ok := readLink(LinkPath(dir, name))
	if !ok {
		return ""
	}
	return l.TranscriptID
}

// readLink reads the link file p; ok is false when it is missing or does
// not decode, or names a journal id that is not valid (transcript_id is
// either absent or a valid id).
func readLink(p string) (link, bool) {
	var l link
	data, err := storefile.ReadFile(p)
	if err != nil || json.Unmarshal(data, &l) != nil || l.TranscriptID != "" && !journal.ValidID(l.TranscriptID) {
		return link{}, false
	}
	return l, true
}

// keepLink records the link of session name as sess stands now, unless it
// is already recorded. The link only helps after a rewrite by another
// program: a failure to write it is ignored. For sess without a journal
// only the revision is kept: a link naming a journal stays as it is but
// for its revision.
func (s *Store) keepLink(name string, sess *Session) {
	if s.journalDir == "" || sess.TranscriptID != "" && !journal.ValidID(sess.TranscriptID) {
		return
	}
	p := LinkPath(s.journalDir, name)
	cur, ok := readLink(p)
	want := link{TranscriptID: sess.TranscriptID, CreatedAt: sess.CreatedAt.UTC(), Meta: droppedMeta(sess.History)}
	if sess.TranscriptID == "" && ok {
		want = cur
	}
	want.Revision = sess.Revision + linkRevisionStep
	if ok && cur.Revision > sess.Revision {
		want.Revision = cur.Revision
	}
	if ok && cur.TranscriptID == want.TranscriptID && cur.CreatedAt.Equal(want.CreatedAt) && reflect.DeepEqual(cur.Meta, want.Meta) &&
		cur.Revision == want.Revision {
		return
	}
	data, err := json.Marshal(want)
	if err == nil && os.MkdirAll(filepath.Dir(p), 0o700) == nil {
		_ = atomicfile.WriteFile(p, data)
	}
}

// linkedRevision is the revision the link of session name records (0
// when none): a save of a file without a revision continues above it.
func (s *Store) linkedRevision(name string) int64 {
	if s.journalDir == "" {
		return 0
	}
	l, ok := readLink(LinkPath(s.journalDir, name))
	if !ok {
		return 0
	}
	return l.Revision
}

// moveLink gives the link of session old, renamed to new, to new at once
// (Rename calls it under both names' locks), so a ChatCLI rewrite of new
// before chatcli saves it again is still re-linked. A link new held from
// an earlier session of that name is replaced; with no link of old, it is
// removed: the name now belongs to the renamed session. Like keepLink,
// a failure is ignored (the next save writes the link).
func (s *Store) moveLink(old, new string) {
	if s.journalDir == "" {
		return
	}
	from, to := LinkPath(s.journalDir, old), LinkPath(s.journalDir, new)
	data, err := storefile.ReadFile(from)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			_ = atomicfile.Remove(to)
		}
		return
	}
	if atomicfile.WriteFile(to, data) == nil {
		_ = atomicfile.Remove(from)
	}
}

// droppedMeta returns, by identity hash, the meta of the messages of h that
// hold fields ChatCLI does not keep; nil when none does (then h is not
// hashed).
func droppedMeta(h []message.Message) map[string]*message.Meta {
	var hashes []string
	var out map[string]*message.Meta
	for i := range h {
		mt := h[i].Meta
		if mt == nil || !mt.Unanswered && mt.Repair == "" && !mt.ToolError && len(mt.Extra) == 0 {
			continue
		}
		if hashes == nil {
			hashes, out = journal.HashHistory(h), map[string]*message.Meta{}
		}
		out[hashes[i]] = &message.Meta{Unanswered: mt.Unanswered, Repair: mt.Repair, ToolError: mt.ToolError, Extra: mt.Extra}
	}
	return out
}

// relink ties sess, loaded from the file of session name without a
// transcript_id, back to its journal when the name's link names one that
// holds at least one of its messages (a link left by an older session of
// the name holds none): it gets back its transcript_id, created_at, the
// journal's last checkpoint list and the meta fields ChatCLI dropped.
// Its journal_pos stays unset: the journal is read whole when the
// conversation opens it, and the file's history, the newer, is recorded
// in it from there. Relinked says it happened.
func (s *Store) relink(name string, sess *Session) {
	if s.journalDir == "" || sess.TranscriptID != "" || len(sess.History) == 0 {
		return
	}
	l, ok := readLink(LinkPath(s.journalDir, name))
	if !ok || l.TranscriptID == "" {
		return
	}
	recs, _, err := journal.ReadAll(journal.Path(s.journalDir, l.TranscriptID), s.key)
	if err != nil {
		return
	}
	held := map[string]bool{}
	var cps journal.CheckpointList
	for _, r := range recs {
		if r.Type == journal.TypeMessage {
			held[r.Hash] = true
		}
		cps.Apply(&r)
	}
	hashes := journal.HashHistory(sess.History)
	shared := false
	for _, h := range hashes {
		shared = shared || held[h]
	}
	if !shared {
		return
	}
	sess.TranscriptID, sess.Relinked = l.TranscriptID, true
	if sess.CreatedAt.IsZero() {
		sess.CreatedAt = l.CreatedAt
	}
	if sess.Checkpoints == nil {
		sess.Checkpoints = cps.JSON()
	}
	for i, h := range hashes {
		if mt := l.Meta[h]; mt != nil {
			sess.History[i].Meta = withDropped(sess.History[i].Meta, mt)
		}
	}
}

// withDropped returns a copy of mt (nil: none) with the fields of kept
// that ChatCLI drops added back.
func withDropped(mt, kept *message.Meta) *message.Meta {
	var out message.Meta
	if mt != nil {
		out = *mt
	}
	out.Unanswered = out.Unanswered || kept.Unanswered
	out.ToolError = out.ToolError || kept.ToolError
	if out.Repair == "" {
		out.Repair = kept.Repair
	}
	if len(kept.Extra) > 0 {
		extra := maps.Clone(out.Extra) // the loaded message's map is not changed
		if extra == nil {
			extra = map[string]json.RawMessage{}
		}
		for k, v := range kept.Extra {
			if _, ok := extra[k]; !ok {
				extra[k] = v
			}
		}
		out.Extra = extra
	}
	return &out
}
