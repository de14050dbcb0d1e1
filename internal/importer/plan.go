package importer

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/message"
)

// plan is what a dry run (Writer.DryRun) would have written so far: the
// record entries it would have put and, by session name, the source ids
// of the messages it would have added to each session. The conversations
// after them are planned against it as a real run imports them against
// the record and the store it wrote: a resumed conversation whose
// earlier one is new in the run extends that one's session, and a
// conversation repeated in the run adds nothing the second time. It holds
// no messages, only ids, so a dry run over many conversations costs about
// what a real one does.
type plan struct {
	entries  map[string]Entry           // by key(tool, id)
	sessions map[string]map[string]bool // session name → SourceIDMember values added
}

// planned returns w's plan, made on first use.
func (w *Writer) planned() *plan {
	if w.plan == nil {
		w.plan = &plan{entries: map[string]Entry{}, sessions: map[string]map[string]bool{}}
	}
	return w.plan
}

// entry is the record entry of conversation id of tool, as the record
// holds it or, in a dry run, as the run would have put it.
func (w *Writer) entry(tool, id string) (Entry, bool) {
	if w.plan != nil {
		if e, ok := w.plan.entries[key(tool, id)]; ok {
			return e, true
		}
	}
	return w.Record.Get(tool, id)
}

// find is Record.Find over the record with the dry run's entries in
// place: the entry of the lowest id match accepts.
func (w *Writer) find(tool string, match func(id string, e Entry) bool) (Entry, bool) {
	if w.plan == nil {
		_, e, ok := w.Record.Find(tool, match)
		return e, ok
	}
	id, e, ok := w.Record.Find(tool, func(id string, e Entry) bool {
		_, replaced := w.plan.entries[key(tool, id)]
		return !replaced && match(id, e)
	})
	if pid, pe, pok := findIn(w.plan.entries, tool, match); pok && (!ok || pid < id) {
		return pe, true
	}
	return e, ok
}

// exists reports whether session name is in the store or, in a dry run,
// would have been made by it.
func (w *Writer) exists(name string) bool {
	if w.plan != nil && w.plan.sessions[name] != nil {
		return true
	}
	return w.Store.Exists(name)
}

// freeName is the name Store.CreateUnique would give a session saved
// under base (base, base-2, base-3, …: the first neither in the store
// nor made by the dry run).
func (w *Writer) freeName(base string) string {
	if !w.exists(base) {
		return base
	}
	for i := 2; i < 1000; i++ {
		if name := fmt.Sprintf("%s-%d", base, i); !w.exists(name) {
			return name
		}
	}
	return base // CreateUnique fails with ErrExists, as the real run would
}

// keep notes, in a dry run, that session name would have gained added.
func (w *Writer) keep(name string, added []message.Message) {
	p := w.planned()
	ids := p.sessions[name]
	if ids == nil {
		ids = map[string]bool{}
		p.sessions[name] = ids
	}
	for _, m := range added {
		if id := sourceID(m); id != "" {
			ids[id] = true
		}
	}
}
