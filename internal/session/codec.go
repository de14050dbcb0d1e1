package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

var knownKeys = map[string]bool{
	"version": true, "title": true, "created_at": true, "updated_at": true, "revision": true,
	"message_count": true, "transcript_id": true, "journal_pos": true, "lineage": true, "checkpoints": true, "attachments": true,
	"agent_history": true, "coder_history": true, "shared_memory": true, "chat_history": true,
}

var emptyArray = json.RawMessage("[]")

// Encode returns the v2 bytes of s: the header members first (version,
// title, created_at, updated_at, revision, message_count, transcript_id,
// journal_pos, lineage),
// then chat_history with one message per line, then checkpoints,
// attachments, unknown members in key order and the per-mode arrays, each
// on a line of its own. So the header is the first few hundred bytes
// whatever the size of the checkpoints, attachments and history, and a
// file chatcli wrote ends with `\n"shared_memory":[]}` when that member is
// empty.
func Encode(s *Session) ([]byte, error) {
	size := 512 + len(s.Checkpoints) + len(s.Attachments) + len(s.AgentHistory) + len(s.CoderHistory) + len(s.SharedMemory)
	for i := range s.History {
		size += len(s.History[i].Content) + 64
	}
	for _, v := range s.Extra {
		size += len(v) + 64
	}
	return encode(s, make([]byte, 0, size), nil)
}

// encodeChunkBytes is how much of the document EncodeTo gathers before
// each write.
const encodeChunkBytes = 256 << 10

// EncodeTo writes Encode's bytes of s to w, a chunk of about
// encodeChunkBytes at a time, so that its memory does not grow with the
// session. Errors: a message that does not encode (nothing after it is
// written), or w's error.
func EncodeTo(w io.Writer, s *Session) error {
	b, err := encode(s, make([]byte, 0, encodeChunkBytes+4096), w)
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}

// encode appends the document of s to b; with w set, it writes what it
// has to w, emptying b, each time b grows past encodeChunkBytes, and
// returns what is left to write.
func encode(s *Session, b []byte, w io.Writer) ([]byte, error) {
	b = append(b, "{\"version\":"...)
	b = strconv.AppendInt(b, FormatVersion, 10)
	b = appendMember(b, "title", s.Title)
	b = appendMember(b, "created_at", s.CreatedAt.UTC().Format(time.RFC3339Nano))
	b = appendMember(b, "updated_at", s.UpdatedAt.UTC().Format(time.RFC3339Nano))
	b = append(b, ",\n\"revision\":"...)
	b = strconv.AppendInt(b, s.Revision, 10)
	b = append(b, ",\n\"message_count\":"...)
	b = strconv.AppendInt(b, int64(len(s.History)), 10)
	if s.TranscriptID != "" {
		b = appendMember(b, "transcript_id", s.TranscriptID)
		if s.JournalPos.Seq > 0 {
			pos, _ := json.Marshal(s.JournalPos) // three integers always encode
			b = append(b, ",\n\"journal_pos\":"...)
			b = append(b, pos...)
		}
	}
	b = appendLineage(b, s.Lineage)
	b = append(b, chatHistoryKey...)
	var err error
	for i := range s.History {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		if b, err = message.AppendJSON(b, &s.History[i]); err != nil {
			return nil, fmt.Errorf("session: encode message #%d: %w", i+1, err)
		}
		if w != nil && len(b) >= encodeChunkBytes {
			if _, err := w.Write(b); err != nil {
				return nil, err
			}
			b = b[:0]
		}
	}
	b = append(b, "\n]"...)
	b = appendRaw(b, "checkpoints", s.Checkpoints, false)
	b = appendRaw(b, "attachments", s.Attachments, false)
	keys := make([]string, 0, len(s.Extra))
	for k := range s.Extra {
		if !knownKeys[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		b = appendRaw(b, k, s.Extra[k], false)
	}
	b = appendRaw(b, "agent_history", s.AgentHistory, true)
	b = appendRaw(b, "coder_history", s.CoderHistory, true)
	b = appendRaw(b, "shared_memory", s.SharedMemory, true)
	return append(b, "}\n"...), nil
}

func appendMember(b []byte, key, val string) []byte {
	b = append(b, ",\n\""...)
	b = append(b, key...)
	b = append(b, "\":"...)
	return appendString(b, val)
}

// appendString appends s as a JSON string without HTML escaping, like the
// messages are written.
func appendString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimRight(buf.Bytes(), "\n")...)
}

func appendRaw(b []byte, key string, raw json.RawMessage, always bool) []byte {
	if len(raw) == 0 {
		if !always {
			return b
		}
		raw = emptyArray
	}
	k, _ := json.Marshal(key)
	b = append(b, ",\n"...)
	b = append(b, k...)
	b = append(b, ':')
	return append(b, raw...)
}

// errFormat is returned by Decode for bytes that are JSON but not a session.
var errFormat = i18n.Errorf("not a session document")

// errTooNew carries the version of a file newer than this build.
type errTooNew struct{ version int }

func (e errTooNew) Error() string {
	return fmt.Sprintf("format version %d is newer than this build supports (%d)", e.version, FormatVersion)
}

// finishDecode builds the session of a top-level object whose members
// (but chat_history) are top, in order, and whose chat_history is h (nil
// when there was none): the format version first (errTooNew before any
// other error), then the header fields, the raw members and the v1
// merge.
func finishDecode(members []member, h *history) (*Session, error) {
	top := make(map[string]json.RawMessage, len(members))
	for _, m := range members {
		top[m.key] = m.value
	}
	s := &Session{SourceVersion: 1}
	if v, ok := top["version"]; ok {
		if err := json.Unmarshal(v, &s.SourceVersion); err != nil {
			return nil, i18n.Errorf("%w: version is %s", errFormat, v)
		}
		if s.SourceVersion > FormatVersion {
			return nil, errTooNew{s.SourceVersion}
		}
	}
	if h != nil {
		if h.err != nil {
			return nil, h.err
		}
		s.History = h.msgs
	}
	fields := []struct {
		key string
		dst any
	}{{"title", &s.Title}, {"created_at", &s.CreatedAt}, {"updated_at", &s.UpdatedAt},
		{"revision", &s.Revision}, {"transcript_id", &s.TranscriptID}, {"journal_pos", &s.JournalPos}}
	for _, f := range fields {
		if raw, ok := top[f.key]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, f.dst); err != nil {
				return nil, i18n.Errorf("%w: field %q: %v", errFormat, f.key, err)
			}
		}
	}
	for _, m := range members {
		if !json.Valid(m.value) {
			return nil, i18n.Errorf("%w: field %q is not valid JSON", errFormat, m.key)
		}
	}
	s.Checkpoints, s.Attachments = top["checkpoints"], top["attachments"]
	s.Lineage = decodeLineage(top["lineage"])
	s.AgentHistory, s.CoderHistory, s.SharedMemory = orNil(top["agent_history"]), orNil(top["coder_history"]), orNil(top["shared_memory"])
	if s.SourceVersion < 2 {
		if err := mergeV1(s); err != nil {
			return nil, err
		}
	}
	mergeScoped(s) // version 2's per-mode histories (modes.go)
	for _, m := range members {
		if knownKeys[m.key] {
			continue
		}
		if s.Extra == nil {
			s.Extra = map[string]json.RawMessage{}
		}
		s.Extra[m.key] = m.value
	}
	s.History = sanitize(s.History)
	return s, nil
}

// mergeV1 appends the v1 agent and coder histories to the unified history,
// marking each message's mode, and empties the per-mode arrays.
func mergeV1(s *Session) error {
	for _, part := range []struct {
		raw  json.RawMessage
		mode string
	}{{s.AgentHistory, "agent"}, {s.CoderHistory, "coder"}} {
		if len(part.raw) == 0 || string(part.raw) == "null" {
			continue
		}
		h, err := message.DecodeList(part.raw)
		if err != nil {
			return i18n.Errorf("%w: %s_history: %v", errFormat, part.mode, err)
		}
		for _, m := range h {
			if m.Meta == nil {
				m.Meta = &message.Meta{}
			}
			if m.Meta.Mode == "" {
				m.Meta.Mode = part.mode
			}
			s.History = append(s.History, m)
		}
	}
	s.AgentHistory, s.CoderHistory = nil, nil
	return nil
}

// orNil returns nil for an absent, null or empty array, which Encode writes
// back as [].
func orNil(raw json.RawMessage) json.RawMessage {
	switch string(bytes.Join(bytes.Fields(raw), nil)) {
	case "", "null", "[]":
		return nil
	}
	return raw // decodeMembers copied it out of the read buffer
}

// sanitize makes every text valid UTF-8 (message.ValidUTF8). encoding/json
// already does this for file input; the call is cheap when nothing is wrong.
func sanitize(h []message.Message) []message.Message {
	for i := range h {
		h[i].Content = message.ValidUTF8(h[i].Content)
	}
	return h
}
