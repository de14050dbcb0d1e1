package importer

import (
	"encoding/json"
	"slices"

	"github.com/chatcli/chatcli/internal/session"
)

// OriginMember is the session-file member naming where an imported
// session came from (see doc.go):
//
//	{"tool","id","source","folder","messages",
//	 "sources":[{"id","source","messages"},…]}
//
// The first members describe the conversation written last, in the shape
// every earlier build reads; sources lists every conversation the session
// was built from (a resumed one extends its earlier one's session), in
// the order they were first imported, each with the file it was last read
// from and how many of its messages are in the session.
const OriginMember = "imported_from"

// origin is the value of OriginMember.
type origin struct {
	Tool     string   `json:"tool"`
	ID       string   `json:"id"`
	Source   string   `json:"source"`
	Folder   string   `json:"folder,omitempty"`
	Messages int      `json:"messages"`
	Sources  []source `json:"sources,omitempty"`
}

// source is one conversation of an origin's sources.
type source struct {
	ID       string `json:"id"`
	Source   string `json:"source"`
	Messages int    `json:"messages"`
}

// originOf decodes sess's OriginMember; false when it has none or it does
// not decode. One written before sources existed gets its one
// conversation as its sources.
func originOf(sess *session.Session) (origin, bool) {
	raw, ok := sess.Extra[OriginMember]
	var o origin
	if !ok || json.Unmarshal(raw, &o) != nil || o.Tool == "" {
		return origin{}, false
	}
	if len(o.Sources) == 0 && o.ID != "" {
		o.Sources = []source{{ID: o.ID, Source: o.Source, Messages: o.Messages}}
	}
	return o, true
}

// part is the conversation id of tool among the origin's sources (the
// file it was last read from and how many of its messages are in the
// session); false when it names no such conversation.
func (o origin) part(tool, id string) (source, bool) {
	if o.Tool != tool {
		return source{}, false
	}
	for _, s := range o.Sources {
		if s.ID == id {
			return s, true
		}
	}
	return source{}, false
}

// with returns o after all of c was written to the session: c is the
// conversation written last and among the sources, added after them the
// first time. An origin of another tool is replaced.
func (o origin) with(c Conversation) origin {
	if o.Tool != c.Tool {
		o = origin{}
	}
	srcs := append([]source(nil), o.Sources...)
	s := source{ID: c.ID, Source: c.Path, Messages: len(c.Messages)}
	if i := slices.IndexFunc(srcs, func(s source) bool { return s.ID == c.ID }); i >= 0 {
		srcs[i] = s
	} else {
		srcs = append(srcs, s)
	}
	return origin{Tool: c.Tool, ID: c.ID, Source: c.Path, Folder: c.Folder, Messages: len(c.Messages), Sources: srcs}
}
