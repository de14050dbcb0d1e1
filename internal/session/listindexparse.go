package session

import (
	"encoding/json"

	"github.com/chatcli/chatcli/internal/journal"
)

// decodeListIndex decodes the list index data into idx (empty on entry).
// The index is json.Marshal's encoding of a listIndex, which parseListIndex
// reads without reflection; any other spelling of the same JSON goes
// through json.Unmarshal, whose answer it then is. It reports false for
// data that is not such an object, leaving idx empty.
func decodeListIndex(data []byte, idx listIndex) bool {
	if parseListIndex(data, idx) {
		return true
	}
	clear(idx)
	if json.Unmarshal(data, &idx) != nil {
		clear(idx)
		return false
	}
	return true
}

// parseListIndex reads json.Marshal's bytes of a listIndex: an object of
// entries, each an object whose members are listIndexEntry's JSON names
// in any order, without spaces. A member json.Unmarshal would read some
// other way (another case, null, a number in another form) makes it
// report false, and so does anything else it does not know.
func parseListIndex(data []byte, idx listIndex) bool {
	p := headParser{b: data, s: string(data)}
	if !p.lit("{") {
		return false
	}
	if p.lit("}") {
		return p.done()
	}
	for {
		var name string
		var e listIndexEntry
		if !p.str(&name) || !p.lit(":") || !p.entry(&e) {
			return false
		}
		idx[name] = e // the last of a repeated name, as json.Unmarshal keeps
		if p.lit("}") {
			return p.done()
		}
		if !p.lit(",") {
			return false
		}
	}
}

// entry consumes one listIndexEntry object.
func (p *headParser) entry(e *listIndexEntry) bool {
	if !p.lit("{") {
		return false
	}
	if p.lit("}") {
		return true
	}
	for {
		start, end, escaped, ok := p.rawString()
		if !ok || escaped || !p.lit(":") || !p.entryMember(string(p.b[start:end]), e) {
			return false
		}
		if p.lit("}") {
			return true
		}
		if !p.lit(",") {
			return false
		}
	}
}

// entryMember consumes the value of e's member key.
func (p *headParser) entryMember(key string, e *listIndexEntry) bool {
	var n int64
	ok := true
	switch key {
	case "title":
		return p.str(&e.Title)
	case "transcript_id":
		return p.str(&e.TranscriptID)
	case "corrupt":
		return p.str(&e.Corrupt)
	case "created_at":
		return p.time(&e.CreatedAt)
	case "updated_at":
		return p.time(&e.UpdatedAt)
	case "journal_pos":
		return p.pos(&e.JournalPos)
	case "ino":
		e.Ino, ok = p.uint()
		return ok
	case "size":
		e.Size, ok = p.int()
	case "mtime_ns":
		e.MtimeNanos, ok = p.int()
	case "ctime_ns":
		e.CtimeNanos, ok = p.int()
	case "listed_ns":
		e.ListedNanos, ok = p.int()
	case "revision":
		e.Revision, ok = p.int()
	case "messages":
		n, ok = p.int()
		e.Messages = int(n)
	case "version":
		n, ok = p.int()
		e.Version = int(n)
	case "rules":
		n, ok = p.int()
		e.Rules = int(n)
	case "marked":
		switch {
		case p.lit("true"):
			e.Marked = true
		case p.lit("false"):
			e.Marked = false
		default:
			return false
		}
	case "lineage":
		start := p.i
		var l Lineage
		if !p.object() || json.Unmarshal(p.b[start:p.i], &l) != nil {
			return false
		}
		e.Lineage = &l
	default:
		return false
	}
	return ok
}

// pos consumes a journal.Pos as json.Marshal writes it.
func (p *headParser) pos(pos *journal.Pos) bool {
	var line int64
	var ok bool
	if !p.lit(`{"seq":`) {
		return false
	}
	if pos.Seq, ok = p.int(); !ok || !p.lit(`,"offset":`) {
		return false
	}
	if pos.Offset, ok = p.int(); !ok || !p.lit(`,"line":`) {
		return false
	}
	if line, ok = p.int(); !ok || !p.lit("}") {
		return false
	}
	pos.Line = int(line)
	return true
}
