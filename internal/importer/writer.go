package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// Writer writes conversations into a session store, each with its
// journal, and keeps the import record.
type Writer struct {
	// Store receives the sessions; its clock is set to each
	// conversation's last time while it is written, so updated_at is the
	// conversation's own.
	Store *session.Store
	// JournalDir is the journals' folder; "" writes no journal.
	JournalDir string
	Record     *Record
	// DryRun reads and plans without writing anything: each Outcome is
	// what a real run would report, the conversations before it in the
	// run counted as imported (plan.go).
	DryRun bool
	// Now is the clock of the record and of conversations without times.
	Now func() time.Time

	plan *plan // a dry run's would-be writes
}

// Outcome is what Import did with one conversation.
type Outcome struct {
	// Session is the session's name; Created is set when Import made it.
	Session string
	Created bool
	// Added counts the messages written (0: it was up to date); for a
	// new session with compactions, every message of the conversation
	// (those compacted away are in its journal).
	Added int
	// Fixes are the repairs message.Repair made to the added messages.
	Fixes []message.Fix
}

// Import writes c: a new session named BaseName(prefix, c) the first time
// (another free name when that one is taken; the session of the
// conversation c continues when c is a resumed one, see extend), and afterwards only the
// messages that came after those already imported, appended to that
// session; nothing when there are none. The record's entry, and the
// session's OriginMember, say how many were imported. Errors are those of
// the store, the journal and the record, wrapped with the session's name;
// a failure leaves the record as it was, so the next run tries again.
func (w *Writer) Import(prefix string, c Conversation) (Outcome, error) {
	e, ok := w.entry(c.Tool, c.ID)
	if !ok {
		e, ok = w.adopt(prefix, c)
	}
	if ok && w.exists(e.Session) {
		return w.append(c, e)
	}
	if p, found := w.Parent(c); !ok && found && w.exists(p.Session) {
		return w.extend(c, p) // a resumed conversation (lineage.go)
	}
	return w.create(prefix, c)
}

// adopt finds the session an earlier run wrote for c whose record entry
// was not written (the run stopped between the two): among the names
// create tries (the base name, then its numbered variants, up to the
// first that is free), the session whose OriginMember names c.
func (w *Writer) adopt(prefix string, c Conversation) (Entry, bool) {
	base := BaseName(prefix, c)
	for i := 1; i < 1000; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		if !w.Store.Exists(name) {
			return Entry{}, false
		}
		sess, err := w.Store.Load(name)
		if err != nil {
			continue
		}
		o, _ := originOf(sess)
		if p, ok := o.part(c.Tool, c.ID); ok {
			return Entry{Source: p.Source, Session: name, Messages: p.Messages}, true
		}
	}
	return Entry{}, false
}

func (w *Writer) create(prefix string, c Conversation) (Outcome, error) {
	ss, fixes := steps(nil, c, 0)
	h := ss[len(ss)-1].history
	out := Outcome{Session: BaseName(prefix, c), Created: true, Added: len(h), Fixes: fixes}
	if len(c.Compactions) > 0 {
		out.Added = len(c.Messages) // those compacted away are in the journal
	}
	if len(h) == 0 {
		return out, nil
	}
	if w.DryRun {
		out.Session = w.freeName(out.Session)
		w.keep(out.Session, h)
		return out, w.note(c, out.Session)
	}
	sess := &session.Session{Title: c.Title, CreatedAt: c.Created}
	if err := w.write(sess, c, ss, func() error {
		name, err := w.Store.CreateUnique(out.Session, sess)
		out.Session = name
		return err
	}); err != nil {
		return out, err
	}
	return out, w.note(c, out.Session)
}

func (w *Writer) append(c Conversation, e Entry) (Outcome, error) {
	out := Outcome{Session: e.Session}
	if len(c.Messages) <= e.Messages {
		if _, recorded := w.entry(c.Tool, c.ID); !recorded {
			return out, w.note(c, e.Session) // adopted: its entry was lost
		}
		return out, nil
	}
	added := c.Messages[e.Messages:]
	out.Added = len(added)
	sess, err := w.load(e.Session)
	if err != nil {
		return out, err
	}
	// A run that stopped before its record wrote what the session's
	// OriginMember counts (Repair may have changed the messages it added,
	// so they are not told by their hashes).
	o, _ := originOf(sess)
	if p, ok := o.part(c.Tool, c.ID); ok && p.Messages > e.Messages {
		added = c.Messages[min(p.Messages, len(c.Messages)):]
		out.Added = len(added)
	}
	if len(added) == 0 || endsWith(sess.History, added) { // written by a run that stopped before its record
		out.Added = 0
		return out, w.note(c, e.Session)
	}
	return w.appendMessages(out, e.Session, sess, c, tailFrom(c, len(c.Messages)-len(added)))
}

// write makes the last of ss sess's history, records each of ss in order
// in its journal, names the position in the file and saves the file with
// save, at c's last time.
func (w *Writer) write(sess *session.Session, c Conversation, ss []step, save func() error) error {
	o, _ := originOf(sess)
	raw, err := json.Marshal(o.with(c))
	if err != nil {
		return err
	}
	if sess.Extra == nil {
		sess.Extra = map[string]json.RawMessage{}
	}
	sess.Extra[OriginMember] = raw
	sess.History = ss[len(ss)-1].history
	if err := w.journal(sess, ss); err != nil {
		return err
	}
	at := c.Updated
	if at.IsZero() {
		at = w.Now()
	}
	w.Store.SetClock(func() time.Time { return at })
	defer w.Store.SetClock(time.Now)
	if err := save(); err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return err
	}
	return nil
}

// journal appends the histories of ss, in order and each with its
// reason, to sess's journal (a new one when it has none) and sets the
// position the file will name.
func (w *Writer) journal(sess *session.Session, ss []step) error {
	if w.JournalDir == "" {
		return nil
	}
	if !journal.ValidID(sess.TranscriptID) {
		sess.TranscriptID = journal.NewID()
	}
	j, _, err := journal.Open(w.JournalDir, sess.TranscriptID, w.Store.Key())
	if err != nil {
		return i18n.Errorf("importer: journal of %q: %w", sess.Title, err)
	}
	for _, st := range ss {
		if _, err := j.Sync(st.history, st.reason); err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
			return i18n.Errorf("importer: journal %s: %w", j.Path(), err)
		}
	}
	sess.JournalPos = j.Pos()
	return nil
}

// note writes c's record entry: all its messages are in session name.
// A dry run keeps the entry in its plan instead.
func (w *Writer) note(c Conversation, name string) error {
	e := Entry{Source: c.Path, Session: name, Messages: len(c.Messages), At: w.Now().UTC(), Leaf: c.Leaf}
	if w.DryRun {
		w.planned().entries[key(c.Tool, c.ID)] = e
		return nil
	}
	return w.Record.Put(c.Tool, c.ID, e)
}

// load reads session name from the store; in a dry run, a session only
// the run would have made is an empty one (its ids are in the plan).
func (w *Writer) load(name string) (*session.Session, error) {
	if w.DryRun && !w.Store.Exists(name) {
		return &session.Session{}, nil
	}
	return w.Store.Load(name)
}

// endsWith reports whether h ends with the messages of tail (compared by
// their journal identity hashes).
func endsWith(h, tail []message.Message) bool {
	if len(tail) > len(h) {
		return false
	}
	a, b := journal.HashHistory(h[len(h)-len(tail):]), journal.HashHistory(tail)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// appendMessages adds to sess, the session named name, the messages of
// part (the messages of c to add, with the compactions among them: steps)
// repaired as message.Repair repairs them (the fixes go in out), saves it
// through the journal and notes c in the record: the last step of an
// import that adds messages to a session it made before. out is returned
// with the first error of the save or the record.
func (w *Writer) appendMessages(out Outcome, name string, sess *session.Session, c, part Conversation) (Outcome, error) {
	ss, fixes := steps(sess.History, part, 0)
	out.Fixes = fixes
	if w.DryRun {
		w.keep(name, part.Messages)
		return out, w.note(c, name)
	}
	if err := w.write(sess, c, ss, func() error { return w.Store.Save(name, sess) }); err != nil {
		return out, err
	}
	return out, w.note(c, name)
}
