package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/jsonscan"
	"github.com/chatcli/chatcli/internal/message"
)

// scanBufBytes is the read buffer of Header.scan: the memory a scan needs,
// whatever the size of the file.
const scanBufBytes = 256 << 10

// maxMemberBytes bounds the JSON text of a header member Header.scan
// decodes (version, title, created_at, updated_at, revision,
// transcript_id, journal_pos) and of a message's role and meta.is_summary; a longer one
// is refused (errFormat).
const maxMemberBytes = 64 << 10

// titleSourceBytes is how much of a message's content, as JSON text,
// Header.scan reads to derive a title: it holds the first TitleChars
// characters of any text but one whose characters each carry hundreds of
// combining marks.
const titleSourceBytes = 64 << 10

// scanState is the memory of one scan, pooled: the read buffer, and
// scratch space for the values read (kept across messages and files).
type scanState struct {
	buf  []byte
	bufs scanScratch
}

var scanStates = sync.Pool{New: func() any { return &scanState{buf: make([]byte, scanBufBytes)} }}

// headerKeys are the header members Header.scan decodes.
var headerKeys = [...]string{"version", "title", "created_at", "updated_at", "revision", "transcript_id", "journal_pos", "lineage"}

// historyKeys are the message arrays a scan counts: chat_history, and
// agent_history and coder_history, which Decode merges after it in this
// order (mergeV1; mergeScoped without their system messages).
var historyKeys = [...]string{"chat_history", "agent_history", "coder_history"}

// scanned is what a scan learned of one message array.
type scanned struct {
	count int
	// system counts the system messages, which a scan finds in the
	// per-mode arrays only (roles are read there for every message).
	system int
	// title is the title its first user message that is not a summary
	// gives (message.Clip of the content to TitleChars); "" when none does.
	title string
	// bad is what Load would refuse in the array (an element that is no
	// object, a member of a message of the wrong type); it counts only for
	// the arrays Load decodes.
	bad error
}

// scan reads the whole session document r, as Decode would, through a
// buffer of scanBufBytes: the messages are counted by a byte scan
// (jsonscan.Stream) and not decoded, except that until a title is found
// the role, meta.is_summary and the first titleSourceBytes of the content
// of each message are. It sets the header members, Messages (what
// len(Load(name).History) is: chat_history, plus agent_history and
// coder_history for v1 documents, or the length of a bare message array)
// and, when the file has no title, the title DeriveTitle would give the
// loaded history. It checks the document's structure (a cut or malformed
// file is an error wrapping jsonscan.ErrSyntax) but not the contents of
// strings or of the messages it does not decode, which Load checks.
// Other errors: errFormat, the reader's.
func (h *Header) scan(r io.Reader) error {
	ss := scanStates.Get().(*scanState)
	defer scanStates.Put(ss)
	st := jsonscan.NewStream(r, ss.buf)
	c, err := st.Enter()
	if err != nil {
		return err
	}
	if c == '[' { // v1: a bare message array
		hs, err := scanMessages(st, "message array", &ss.bufs)
		if err != nil {
			return err
		}
		if err := st.End(); err != nil {
			return err
		}
		h.Messages, h.Title = hs.count, hs.title
		return hs.bad
	}
	var raws [len(headerKeys)][]byte // the last of each, as Decode keeps
	var hists [len(historyKeys)]scanned
	for {
		more, err := st.More()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		key, err := st.Key()
		if err != nil {
			return err
		}
		if k := slices.Index(headerKeys[:], key); k >= 0 {
			raw, cut, err := st.Raw(raws[k][:0], maxMemberBytes)
			if err != nil {
				return err
			}
			if cut {
				return fmt.Errorf("%w: field %q is longer than %d bytes", errFormat, key, maxMemberBytes)
			}
			raws[k] = raw
			continue
		}
		if k := slices.Index(historyKeys[:], key); k >= 0 {
			if hists[k], err = scanHistory(st, key, &ss.bufs); err != nil {
				return err
			}
			continue
		}
		if err := st.Skip(); err != nil {
			return err
		}
	}
	if err := st.End(); err != nil {
		return err
	}
	return h.decodeScanned(raws, hists)
}

// decodeScanned decodes the header members a scan kept and counts the
// histories Load would return, as Decode does.
func (h *Header) decodeScanned(raws [len(headerKeys)][]byte, hists [len(historyKeys)]scanned) error {
	if v := raws[0]; v != nil {
		if err := json.Unmarshal(v, &h.Version); err != nil {
			return fmt.Errorf("%w: version is %s", errFormat, v)
		}
		if h.Version > FormatVersion {
			return nil // refused by the caller, naming the version
		}
	}
	h.Lineage = decodeLineage(raws[len(headerKeys)-1])
	for k, dst := range []any{&h.Title, &h.CreatedAt, &h.UpdatedAt, &h.Revision, &h.TranscriptID, &h.JournalPos} {
		raw := raws[k+1]
		if raw == nil || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			return fmt.Errorf("%w: field %q: %v", errFormat, headerKeys[k+1], err)
		}
	}
	h.Messages = 0
	title := ""
	for k, hs := range hists {
		if h.Version >= 2 && k > 0 { // merged without system messages, when they decode
			if hs.bad != nil {
				continue
			}
			hs.count -= hs.system
		}
		if hs.bad != nil {
			return hs.bad
		}
		h.Messages += hs.count
		if title == "" {
			title = hs.title
		}
	}
	if h.Title == "" {
		h.Title = title
	}
	return nil
}

// scanHistory reads the value of the history member key: null (no
// messages) or a message array.
func scanHistory(st *jsonscan.Stream, key string, bufs *scanScratch) (scanned, error) {
	c, err := st.Peek()
	if err != nil {
		return scanned{}, err
	}
	switch c {
	case 'n':
		return scanned{}, st.Skip()
	case '[':
		if _, err := st.Enter(); err != nil {
			return scanned{}, err
		}
		return scanMessages(st, "field "+key, bufs)
	}
	return scanned{bad: fmt.Errorf("%w: field %q is not an array", errFormat, key)}, st.Skip()
}

// scanMessages counts the elements of the message array just entered,
// reading every message's role and the types of its members (checkMember)
// until one is found that Load would refuse, and the title from the first
// message that gives one. what names the array in errors; bufs is the
// scan's scratch space.
func scanMessages(st *jsonscan.Stream, what string, bufs *scanScratch) (scanned, error) {
	var hs scanned
	for {
		more, err := st.More()
		if err != nil || !more {
			return hs, err
		}
		hs.count++
		c, err := st.Peek()
		if err != nil {
			return hs, err
		}
		switch {
		case c != '{':
			if hs.bad == nil {
				hs.bad = fmt.Errorf("%w: %s: message #%d is not an object", errFormat, what, hs.count)
			}
			err = st.Skip()
		case hs.bad == nil:
			var bad error
			var title string
			var role message.Role
			title, role, bad, err = scanTitle(st, hs.title == "", bufs)
			if hs.title == "" {
				hs.title = title
			}
			if role == message.RoleSystem {
				hs.system++
			}
			if bad != nil {
				hs.bad = fmt.Errorf("%w: %s: message #%d: %v", errFormat, what, hs.count, bad)
			}
		default:
			err = st.Skip()
		}
		if err != nil {
			return hs, err
		}
	}
}

// scanTitle reads one message object and returns its role and, with
// wantTitle, the title it gives: message.Clip of its content to
// TitleChars when it is a user message that is not a summary
// (meta.is_summary), else "". Its members are matched as encoding/json
// matches them to message.Message (names in any case, the last of a name
// wins). bad is a member read here that Load would refuse. bufs is
// scratch space, kept for the next message.
func scanTitle(st *jsonscan.Stream, wantTitle bool, bufs *scanScratch) (title string, r message.Role, bad, err error) {
	if _, err := st.Enter(); err != nil {
		return "", "", nil, err
	}
	var role, content []byte
	var roleCut, contentCut, summary bool
	for {
		more, err := st.More()
		if err != nil {
			return "", "", nil, err
		}
		if !more {
			break
		}
		key, err := st.Key()
		if err != nil {
			return "", "", nil, err
		}
		switch {
		case strings.EqualFold(key, "role"):
			role, roleCut, err = st.Raw(bufs.role[:0], maxMemberBytes)
			bufs.role = role[:0]
		case strings.EqualFold(key, "content") && wantTitle:
			content, contentCut, err = st.Raw(bufs.content[:0], titleSourceBytes)
			bufs.content = content[:0]
		case strings.EqualFold(key, "meta"):
			var b error
			summary, b, err = scanSummary(st, &bufs.value)
			if bad == nil {
				bad = b
			}
		default:
			var b error
			b, err = checkMember(st, key, &bufs.value)
			if bad == nil {
				bad = b
			}
		}
		if err != nil {
			return "", "", nil, err
		}
	}
	if bad == nil && content != nil && content[0] != '"' && content[0] != 'n' {
		bad = fmt.Errorf("content: a JSON %s where Load wants string", kindName(content[0]))
	}
	if role != nil && !roleCut { // a longer role is not "user"
		var b error
		if r, b = roleOf(role); b != nil {
			return "", "", fmt.Errorf("role: %v", b), nil
		}
	}
	if bad != nil || r != message.RoleUser || summary || !wantTitle {
		return "", r, bad, nil
	}
	var text string
	if content != nil {
		if contentCut {
			content = closeCutString(content)
		}
		if err := json.Unmarshal(content, &text); err != nil {
			return "", r, fmt.Errorf("content: %v", err), nil
		}
	}
	return message.Clip(text, TitleChars), r, nil, nil
}

// scanScratch is the scratch space of a scan: a message's role and the
// start of its content as read, and a member's value as read
// (meta.is_summary, tool_calls, images).
type scanScratch struct{ role, content, value []byte }

// scanSummary reads a message's meta (an object or null) and returns its
// is_summary. buf is scratch space for its value.
func scanSummary(st *jsonscan.Stream, buf *[]byte) (summary bool, bad, err error) {
	c, err := st.Peek()
	if err != nil {
		return false, nil, err
	}
	switch c {
	case 'n':
		return false, nil, st.Skip()
	case '{':
	default:
		return false, errors.New("meta is not an object"), st.Skip()
	}
	if _, err := st.Enter(); err != nil {
		return false, nil, err
	}
	for {
		more, err := st.More()
		if err != nil || !more {
			return summary, bad, err
		}
		key, err := st.Key()
		if err != nil {
			return false, nil, err
		}
		if !strings.EqualFold(key, "is_summary") {
			if err := st.Skip(); err != nil {
				return false, nil, err
			}
			continue
		}
		raw, cut, err := st.Raw((*buf)[:0], maxMemberBytes)
		*buf = raw[:0]
		if err != nil {
			return false, nil, err
		}
		switch {
		case cut:
			bad = errors.New("meta.is_summary is not a boolean")
		case string(raw) == "true" || string(raw) == "false": // as json.Unmarshal reads them, without its allocations
			summary = raw[0] == 't'
		default:
			var v bool
			if e := json.Unmarshal(raw, &v); e != nil && bad == nil {
				bad = fmt.Errorf("meta.is_summary: %v", e)
			} else if e == nil && string(raw) != "null" {
				summary = v
			}
		}
	}
}

// closeCutString turns the first bytes of a JSON string (raw, from its
// opening quote) into a whole string: an escape sequence cut at the end is
// dropped and a closing quote appended.
func closeCutString(raw []byte) []byte {
	end := len(raw)
	for i := 1; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		n := 2
		if i+1 < len(raw) && raw[i+1] == 'u' {
			n = 6
		}
		if i+n > len(raw) {
			end = i
			break
		}
		i += n - 1
	}
	return append(raw[:end], '"')
}
