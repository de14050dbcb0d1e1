package journal

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/chatcli/chatcli/internal/jsonscan"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// lineReadBytes is what MessageAt reads of a line at a time.
const lineReadBytes = 32 << 10

// MessageAt returns the message of the message record numbered
// before.Seq+1 of the journal at path, as RecordAt returns it, but reads
// only the line at before.Offset: its checksum is checked and its members
// found by a byte scan, and a message of a role, text and meta alone has
// its text decoded without encoding/json (package search shows ten of them per query).
// Whenever that line is not that record as chatcli writes it, it is
// RecordAt's answer, errors included.
func MessageAt(path string, key seal.Key, before Pos) (*message.Message, error) {
	if m := messageAtLine(path, key, before); m != nil {
		return m, nil
	}
	r, err := RecordAt(path, key, before)
	if err != nil {
		return nil, err
	}
	if r.Message == nil {
		return nil, ErrCorrupt
	}
	return r.Message, nil
}

// messageAtLine is MessageAt's reading of the one line, or nil when that
// line is not the record wanted, whole and checked.
func messageAtLine(path string, key seal.Key, before Pos) *message.Message {
	f, _, err := storefile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	line, at := []byte(nil), before.Offset-1
	if at < 0 {
		at, line = 0, []byte{'\n'} // the first line: no newline before it
	}
	for {
		buf := make([]byte, lineReadBytes)
		n, err := f.ReadAt(buf, at)
		line = append(line, buf[:n]...)
		at += int64(n)
		if len(line) == 0 || line[0] != '\n' {
			return nil // before.Offset is not where a line starts
		}
		if end := bytes.IndexByte(line[1:], '\n'); end >= 0 {
			line = line[1 : end+1]
			break
		}
		if err == io.EOF || n == 0 {
			return nil
		}
	}
	if seal.IsSealedLine(line) {
		if key.IsZero() {
			return nil
		}
		if line, err = seal.OpenLine(key, LineName(idOf(path)), line); err != nil {
			return nil
		}
	}
	members, err := jsonscan.Members(line)
	if err != nil || len(members) == 0 || members[len(members)-1].Key != "crc" || checkCRC(line) != nil {
		return nil
	}
	var typ string
	var seq int64
	var msg []byte
	for _, m := range members {
		switch m.Key {
		case "type":
			typ, _ = jsonscan.Unquote(m.Value)
		case "seq":
			seq, _ = strconv.ParseInt(string(m.Value), 10, 64)
		case "message":
			msg = m.Value
		}
	}
	if typ != TypeMessage || seq != before.Seq+1 || msg == nil {
		return nil
	}
	return decodeMessage(msg)
}

// decodeMessage decodes the message object data: one of a role, content
// and meta alone by a byte scan, any other by encoding/json (with
// message.Message's rules); nil when it does not decode.
func decodeMessage(data []byte) *message.Message {
	members, err := jsonscan.Members(data)
	if err != nil {
		return nil
	}
	if m, ok := textMessage(members); ok {
		return m
	}
	m := &message.Message{}
	if err := json.Unmarshal(data, m); err != nil {
		return nil
	}
	return m
}

// textMessage decodes the members of a message holding a role, content
// and meta alone, the first two strings; ok is false for any other. The
// meta, small, is decoded by encoding/json.
func textMessage(members []jsonscan.Member) (*message.Message, bool) {
	m := &message.Message{}
	for _, mb := range members {
		if mb.Key == "meta" {
			m.Meta = &message.Meta{}
			if json.Unmarshal(mb.Value, m.Meta) != nil {
				return nil, false
			}
			continue
		}
		s, err := jsonscan.Unquote(mb.Value)
		switch {
		case err != nil:
			return nil, false
		case mb.Key == "role":
			m.Role = message.Role(s)
		case mb.Key == "content":
			m.Content = s
		default:
			return nil, false
		}
	}
	return m, true
}
