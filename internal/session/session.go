package session

import (
	"encoding/json"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// FormatVersion is the session format this build writes and the highest it
// reads.
const FormatVersion = 2

// Session is one stored conversation (format v2, see doc.go).
type Session struct {
	// Title is a one-line label, by default the first user message clipped
	// to TitleChars characters.
	Title string
	// CreatedAt and UpdatedAt are stored times; UpdatedAt is set by every
	// save and drives recency (never the file's mtime, except for files
	// written by other programs that lack it).
	CreatedAt, UpdatedAt time.Time
	// Revision counts saves of this session; other surfaces compare it to
	// notice a newer write.
	Revision int64
	// TranscriptID names the journal of this session's lineage; "" when none.
	TranscriptID string
	// JournalPos is the position in that journal the history covers: the
	// file is the journal's snapshot there, and Load applies the records
	// after it. Seq 0 when the file stands on its own (written with the
	// journal off, by another program, or before positions existed).
	JournalPos journal.Pos
	// Lineage is the session this one was made from (a fork, a conflict
	// fork, an attach or save under a new name); nil for a session that
	// was not, or was made before lineage was recorded.
	Lineage *Lineage
	// History is the unified conversation (chat_history).
	History []message.Message
	// Checkpoints and Attachments are kept as raw JSON; nil when absent.
	Checkpoints, Attachments json.RawMessage
	// AgentHistory, CoderHistory and SharedMemory are the per-mode arrays of
	// the v2 format ([] when empty). Message arrays in the first two are
	// merged into History on load (mergeV1, mergeScoped); anything else is
	// kept verbatim.
	AgentHistory, CoderHistory, SharedMemory json.RawMessage
	// Extra holds top-level fields this build does not know, kept verbatim.
	Extra map[string]json.RawMessage
	// SourceVersion is the format version the file had when it was loaded
	// (1 or 2); 0 for a session never loaded from disk.
	SourceVersion int
	// Tail counts the journal records Load applied after the file's
	// JournalPos (0 when the file was up to date); JournalWarnings name
	// the damaged journal lines it skipped. Neither is stored.
	Tail            int
	JournalWarnings []journal.Warning
	// ModesMerged counts what Decode merged of a version-2 file's per-mode
	// histories (modes.go); zero for every file chatcli wrote. Not stored.
	ModesMerged ModesMerge
	// Relinked is set by Load when the file had lost its transcript_id (a
	// rewrite by ChatCLI) and its link gave it back (link.go). Not stored.
	Relinked bool
	// PosMoved is set by Load when the journal's lines moved since the file
	// named its position (a rekey or repair): the file's journal_pos is
	// stale and worth writing again. Not stored.
	PosMoved bool
}

// TitleChars is the length of a derived title, in characters.
const TitleChars = 60

// DeriveTitle returns the title for a history: its first user message
// clipped to TitleChars characters (message.Clip), or "" when it has none.
func DeriveTitle(h []message.Message) string {
	for _, m := range h {
		if m.Role == message.RoleUser && m.Content != "" && (m.Meta == nil || !m.Meta.IsSummary) {
			return message.Clip(m.Content, TitleChars)
		}
	}
	return ""
}

// Clone returns a deep copy of s's slices and maps, so the copy can be
// changed without touching s. Messages are copied by value; their tool-call
// slices are shared, which is safe because messages are never edited in
// place.
func (s *Session) Clone() *Session {
	c := *s
	c.History = append([]message.Message(nil), s.History...)
	if s.Lineage != nil {
		l := *s.Lineage
		c.Lineage = &l
	}
	if s.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(s.Extra))
		for k, v := range s.Extra {
			c.Extra[k] = v
		}
	}
	return &c
}
