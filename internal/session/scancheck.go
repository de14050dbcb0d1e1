package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chatcli/chatcli/internal/jsonscan"
	"github.com/chatcli/chatcli/internal/message"
)

// memberKinds are the JSON kinds, by the first byte of the value, that
// Load's decoder (message.Message.UnmarshalJSON, through its wire type)
// accepts for a message's members; null is accepted for every one, as
// encoding/json accepts it. Members not named here are kept as they are;
// role and meta are read by scanTitle.
var memberKinds = map[string]string{
	"content": `"`, "tool_call_id": `"`, "is_error": "tf",
	"tool_calls": "[", "images": "[",
}

// checkMember reads the value of the message member key, and returns as
// bad what Load would refuse in it: a value of the wrong JSON kind, or,
// for tool_calls and images up to maxMemberBytes, one that does not
// decode as []message.ToolCall or []message.Image (surelyDecodes first,
// which tells it for the usual shapes without decoding). Keys match as
// encoding/json matches them (any case). err is the stream's error. buf
// is scratch space for the value, kept for the next message.
func checkMember(st *jsonscan.Stream, key string, buf *[]byte) (bad, err error) {
	k := strings.ToLower(key)
	kinds, ok := memberKinds[k]
	if !ok {
		return nil, st.Skip()
	}
	c, err := st.Peek()
	if err != nil {
		return nil, err
	}
	if c == 'n' {
		return nil, st.Skip()
	}
	if !strings.ContainsRune(kinds, rune(c)) {
		return fmt.Errorf("%s: a JSON %s where Load wants %s", k, kindName(c), kindName(kinds[0])), st.Skip()
	}
	var dst any
	var strs map[string]bool
	switch k {
	case "tool_calls":
		dst, strs = &[]message.ToolCall{}, toolCallStrings
	case "images":
		dst, strs = &[]message.Image{}, imageStrings
	default:
		return nil, st.Skip()
	}
	raw, cut, err := st.Raw((*buf)[:0], maxMemberBytes)
	*buf = raw[:0]
	if err != nil || cut { // a longer one is checked by its kind only
		return nil, err
	}
	if surelyDecodes(raw, strs, k == "images") {
		return nil, nil
	}
	if e := json.Unmarshal(raw, dst); e != nil {
		return fmt.Errorf("%s: %v", k, e), nil
	}
	return nil, nil
}

// kindName names the JSON kind a value starting with c has.
func kindName(c byte) string {
	switch c {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "boolean"
	}
	return "number"
}

// roleOf decodes a message's role from its JSON value raw (a string
// without escapes is read without allocating: every message's role is
// read while listing).
func roleOf(raw []byte) (message.Role, error) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		switch string(raw[1 : len(raw)-1]) {
		case string(message.RoleUser):
			return message.RoleUser, nil
		case string(message.RoleAssistant):
			return message.RoleAssistant, nil
		case string(message.RoleSystem):
			return message.RoleSystem, nil
		case string(message.RoleTool):
			return message.RoleTool, nil
		}
	}
	var r message.Role
	err := json.Unmarshal(raw, &r)
	return r, err
}
