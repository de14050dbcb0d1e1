// The journal position of a file whose journal was rekeyed or decrypted.

package session

import (
	"bytes"
	"encoding/json"

	"github.com/chatcli/chatcli/internal/journal"
)

// placeJournalPos returns the journal position a file being rekeyed or
// decrypted names, as its journal (journal id, rekeyed or decrypted
// first) now has it (journal.Place), and its document body with that
// position in its journal_pos. pos is the sealed header's position (nil:
// none, the file is plaintext or was sealed by a build that left it out
// of the header), and the document's own is used when it is nil. Sealing
// or unsealing a journal changes the lengths of the lines a position
// counts in: the record number still names the position, but a reader
// given a stale offset reads the journal from its top, listing at every
// listing. When the journal cannot be read with the store's key, or the
// document is not in chatcli's layout, the position and the body are
// kept as they are.
func (s *Store) placeJournalPos(id string, pos *journal.Pos, body []byte) (*journal.Pos, []byte) {
	if id == "" || !journal.ValidID(id) {
		return pos, body
	}
	var doc Header
	if doc.decodeFast(bytes.NewReader(body)) != nil || doc.TranscriptID != id {
		doc.JournalPos = journal.Pos{}
	}
	if pos == nil {
		if doc.JournalPos.Seq <= 0 {
			return nil, body
		}
		pos = &doc.JournalPos
	}
	if s.journalDir == "" {
		return pos, body
	}
	placed, err := journal.Place(journal.Path(s.journalDir, id), s.key, *pos)
	if err != nil {
		return pos, body
	}
	if doc.JournalPos.Seq == placed.Seq && doc.JournalPos != placed {
		body = withJournalPos(body, placed)
	}
	return &placed, body
}

// journalPosKey starts the journal_pos member of a file in chatcli's
// layout (encode).
var journalPosKey = []byte(",\n\"journal_pos\":{")

// withJournalPos returns doc, a document in chatcli's layout with a
// journal_pos member before chat_history, with that member's value
// replaced by pos; doc as it is when it is not in that form.
func withJournalPos(doc []byte, pos journal.Pos) []byte {
	if out := editJournalPos(doc, &pos); out != nil {
		return out
	}
	return doc
}

// editJournalPos returns doc, a document in chatcli's layout with a
// journal_pos member before chat_history, with that member's value
// replaced by *pos, or without the member when pos is nil; nil when doc is
// not in that form.
func editJournalPos(doc []byte, pos *journal.Pos) []byte {
	head := doc[:min(len(doc), headerBufBytes)]
	end := bytes.Index(head, chatHistoryKey)
	if end < 0 {
		return nil
	}
	at := bytes.Index(head[:end], journalPosKey)
	if at < 0 {
		return nil
	}
	from := at + len(journalPosKey) - 1 // the value's "{"
	to := bytes.IndexByte(head[from:end], '}')
	if to < 0 {
		return nil
	}
	to += from + 1
	var value []byte
	want := journal.Pos{}
	if pos == nil {
		from = at // the whole member, its ",\n" first
	} else {
		value, _ = json.Marshal(*pos) // three integers always encode
		want = *pos
	}
	out := make([]byte, 0, len(doc)-(to-from)+len(value))
	out = append(append(append(out, doc[:from]...), value...), doc[to:]...)
	var w headMembers
	if i := bytes.Index(out[:min(len(out), headerBufBytes)], chatHistoryKey); i < 0 || !decodeHead(out[:i], &w) || w.JournalPos != want {
		return nil
	}
	return out
}
