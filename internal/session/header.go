package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// Header is what List shows of a session, read from the top of its file.
type Header struct {
	Name         string
	Title        string
	Messages     int       // number of messages in chat_history
	CreatedAt    time.Time // zero when the file does not say
	UpdatedAt    time.Time // stored updated_at; the file's mtime when absent
	Revision     int64
	TranscriptID string
	// JournalPos is the journal position the file covers (Session.JournalPos).
	JournalPos journal.Pos
	Version    int
	SizeBytes  int64
	// Err is non-nil when the file could not be read (ErrCorrupt,
	// ErrTooNew, …); the other fields are then partly empty.
	Err error

	skipped bool // the messages were not read
}

// headerBufBytes is the read buffer for headers: a chatcli-written header
// fits in it, so listing reads one block per file.
const headerBufBytes = 4096

// readHeader reads the header of the session file at path. For files chatcli
// wrote, it stops at chat_history once every header member was seen: the
// messages are neither read nor parsed. Files from other programs (no
// message_count, or no title) fall back to streaming through chat_history one
// message at a time, in memory bounded by the largest message.
func readHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Header{}, err
	}
	h := Header{SizeBytes: st.Size(), Version: 1, Messages: -1}
	if st.Size() == 0 {
		return h, classify(path, errEmpty)
	}
	if err := h.decodeFast(f); err != nil {
		if err == errSealedFile {
			return h, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return h, err
		}
		dec := json.NewDecoder(bufio.NewReaderSize(f, headerBufBytes))
		if err := h.decode(dec, false); err != nil {
			return h, classify(path, err)
		}
	}
	if h.Version > FormatVersion {
		return h, classify(path, errTooNew{h.Version})
	}
	if h.UpdatedAt.IsZero() {
		h.UpdatedAt = st.ModTime()
	}
	if h.Messages >= 0 && h.skipped && checkTail(f, st.Size()) != nil {
		// Not the ending chatcli writes ("]}"): a file cut short after an
		// intact header, or one whose last member is no array. Reading the
		// whole document tells them apart.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return h, err
		}
		full := Header{SizeBytes: h.SizeBytes, Version: 1, Messages: -1}
		if err := full.decode(json.NewDecoder(bufio.NewReaderSize(f, headerBufBytes)), true); err != nil {
			return h, classify(path, err)
		}
		if full.UpdatedAt.IsZero() {
			full.UpdatedAt = st.ModTime()
		}
		h = full
	}
	return h, nil
}

var headerBufs = sync.Pool{New: func() any { b := make([]byte, headerBufBytes); return &b }}

// chatHistoryKey starts the last member of a file chatcli wrote.
var chatHistoryKey = []byte(",\n\"chat_history\":[")

var errSlowPath = errors.New("header not in chatcli's layout")

// decodeFast reads the first block of a file in chatcli's own layout and
// decodes the members before chat_history as one small object. Any other
// layout returns errSlowPath.
func (h *Header) decodeFast(f io.Reader) error {
	bp := headerBufs.Get().(*[]byte)
	defer headerBufs.Put(bp)
	n, err := io.ReadFull(f, *bp)
	if err != nil && err != io.ErrUnexpectedEOF {
		return err
	}
	block := (*bp)[:n]
	if IsSealedFile(block) {
		return errSealedFile
	}
	i := bytes.Index(block, chatHistoryKey)
	if i < 0 || !bytes.Contains(block[:i], []byte(`"message_count":`)) {
		return errSlowPath
	}
	var w struct {
		Version      int         `json:"version"`
		Title        string      `json:"title"`
		CreatedAt    time.Time   `json:"created_at"`
		UpdatedAt    time.Time   `json:"updated_at"`
		Revision     int64       `json:"revision"`
		MessageCount int         `json:"message_count"`
		TranscriptID string      `json:"transcript_id"`
		JournalPos   journal.Pos `json:"journal_pos"`
	}
	head := append(block[:i:i], '}')
	if err := json.Unmarshal(head, &w); err != nil {
		return errSlowPath
	}
	h.Version, h.Title, h.CreatedAt, h.UpdatedAt = w.Version, w.Title, w.CreatedAt, w.UpdatedAt
	h.Revision, h.Messages, h.TranscriptID, h.JournalPos = w.Revision, w.MessageCount, w.TranscriptID, w.JournalPos
	h.skipped = true
	return nil
}

// decode reads a document's header members from dec. Unless full, it
// stops at chat_history when message_count and title came before it
// (chatcli's layout: the messages are not read); with full every member is
// read, so a document that is cut or invalid anywhere fails.
func (h *Header) decode(dec *json.Decoder, full bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('['):
		return h.countMessages(dec, false)
	case json.Delim('{'):
	default:
		return errFormat
	}
	haveCount := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var dst any
		switch key {
		case "version":
			dst = &h.Version
		case "title":
			dst = &h.Title
		case "created_at":
			dst = &h.CreatedAt
		case "updated_at":
			dst = &h.UpdatedAt
		case "revision":
			dst = &h.Revision
		case "transcript_id":
			dst = &h.TranscriptID
		case "journal_pos":
			dst = &h.JournalPos
		case "message_count":
			dst, haveCount = &h.Messages, true
		case "chat_history":
			if !full && haveCount && (h.Title != "" || h.Messages == 0) {
				h.skipped = true
				return nil // chatcli's own layout: done without reading messages
			}
			if err := h.countMessages(dec, true); err != nil {
				return err
			}
			continue
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		if err := dec.Decode(dst); err != nil {
			return fmt.Errorf("%w: field %q: %v", errFormat, key, err)
		}
		if h.Version > FormatVersion {
			return nil
		}
	}
	_, err = dec.Token() // }
	return err
}

// countMessages streams a message array, counting messages and deriving the
// title when the file has none. With atValue the decoder is before the
// array's '['; otherwise the '[' was already read.
func (h *Header) countMessages(dec *json.Decoder, atValue bool) error {
	if atValue {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if tok == nil { // null
			h.Messages = 0
			return nil
		}
		if tok != json.Delim('[') {
			return errFormat
		}
	}
	n := 0
	for dec.More() {
		var m message.Message
		if err := dec.Decode(&m); err != nil {
			return err
		}
		if h.Title == "" && m.Role == message.RoleUser && (m.Meta == nil || !m.Meta.IsSummary) {
			h.Title = message.Clip(m.Content, TitleChars)
		}
		n++
	}
	h.Messages = n
	_, err := dec.Token() // ]
	return err
}

// Endings of the files chatcli writes: the per-mode arrays last, the
// last one empty (shared_memory, nearly always), or chat_history last
// (files written before the checkpoints moved after the messages). Neither
// can end a file cut inside a member: a message, and every other member
// chatcli writes, is one line, and JSON strings escape "\n".
var fileEndings = [][]byte{[]byte("\n\"shared_memory\":[]}"), []byte("\n]}")}

// checkTail reports a file whose last 64 bytes do not end (spaces aside)
// with one of fileEndings. It reads only the last block.
func checkTail(f io.ReaderAt, size int64) error {
	const tail = 64
	off := max(size-tail, 0)
	buf := make([]byte, size-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return err
	}
	buf = bytes.TrimRight(buf, " \t\r\n")
	for _, end := range fileEndings {
		if bytes.HasSuffix(buf, end) {
			return nil
		}
	}
	return io.ErrUnexpectedEOF
}
