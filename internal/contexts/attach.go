package contexts

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Modes of an attachment (see doc.go).
const (
	ModeFull      = "full"
	ModeRetrieval = "retrieval"
)

// Attachment is one record of the session's `attachments` member.
type Attachment struct {
	ContextID      string `json:"context_id"`
	Priority       int    `json:"priority"`
	SelectedChunks []int  `json:"selected_chunks,omitempty"`
	Mode           string `json:"mode"`
}

// ParseAttachments decodes the `attachments` member (nil or empty: none).
// Records without a context id are dropped; an unknown mode reads as full.
func ParseAttachments(raw json.RawMessage) ([]Attachment, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []Attachment
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, i18n.Errorf("contexts: the session's attachments member: %w", err)
	}
	out := list[:0]
	for _, a := range list {
		if a.ContextID == "" {
			continue
		}
		if a.Mode != ModeRetrieval {
			a.Mode = ModeFull
		}
		out = append(out, a)
	}
	return out, nil
}

// EncodeAttachments is the `attachments` member holding list, nil when
// list is empty (the member is then left out of the file).
func EncodeAttachments(list []Attachment) (json.RawMessage, error) {
	if len(list) == 0 {
		return nil, nil
	}
	return json.Marshal(list)
}

// Put returns list with a replacing the record of the same context, or
// appended.
func Put(list []Attachment, a Attachment) []Attachment {
	for i := range list {
		if list[i].ContextID == a.ContextID {
			out := append([]Attachment(nil), list...)
			out[i] = a
			return out
		}
	}
	return append(append([]Attachment(nil), list...), a)
}

// Without returns list without the record of context id, and whether
// there was one.
func Without(list []Attachment, id string) ([]Attachment, bool) {
	var out []Attachment
	for _, a := range list {
		if a.ContextID != id {
			out = append(out, a)
		}
	}
	return out, len(out) != len(list)
}

// ByPriority returns list ordered for sending: highest priority first,
// then in the order attached.
func ByPriority(list []Attachment) []Attachment {
	out := append([]Attachment(nil), list...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Priority > out[j].Priority })
	return out
}

// ParseChunkList reads "1,3,5-7" into sorted, distinct chunk numbers, each
// between 1 and n. Errors name the bad part.
func ParseChunkList(s string, n int) ([]int, error) {
	seen := map[int]bool{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a || b > n {
			return nil, i18n.Errorf("chunk list %q: %q is not a chunk number or range between 1 and %d", s, part, n)
		}
		for i := a; i <= b; i++ {
			seen[i] = true
		}
	}
	out := make([]int, 0, len(seen))
	for i := range seen {
		out = append(out, i)
	}
	sort.Ints(out)
	return out, nil
}
