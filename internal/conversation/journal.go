package conversation

import (
	"errors"
	"syscall"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// JournalID is the id of the live conversation's journal, "" when the
// journal is off or nothing was recorded yet.
func (e *Engine) JournalID() string {
	if e.journalDir == "" {
		return ""
	}
	return e.sess.TranscriptID
}

// JournalDir is the folder of the journals, "" when the journal is off.
func (e *Engine) JournalDir() string { return e.journalDir }

// openJournal opens the journal named by the session's transcript_id,
// giving the conversation a new id first when it has none. Damaged lines
// are reported through Notify.
func (e *Engine) openJournal() error {
	if e.journal != nil && e.journal.ID() == e.sess.TranscriptID {
		return nil
	}
	if id := e.sess.TranscriptID; id != "" && !journal.ValidID(id) {
		e.notifyf("transcript_id %q cannot name a journal; starting a new one", id)
		e.sess.TranscriptID = ""
	}
	if e.sess.TranscriptID == "" {
		e.sess.TranscriptID = journal.NewID()
	}
	j, warnings, err := journal.Open(e.journalDir, e.sess.TranscriptID, e.store.Key())
	for _, w := range warnings {
		e.notifyf("journal: %s", w.Said())
	}
	if err != nil {
		return err
	}
	e.journal = j
	return nil
}

// record appends to the journal what the live history holds that the
// journal has not recorded (see journal.Sync). A failure is reported
// through Notify and does not stop the conversation: the session file is
// still written.
func (e *Engine) record(reason string) {
	if e.sess.TranscriptID == "" && e.bound != "" && !e.dirty {
		return // the session file holds it all; its journal starts with the next change
	}
	e.recordAlways(reason)
}

// recordAlways is record without waiting for a change: before a rewrite,
// the history being replaced must be in the journal.
func (e *Engine) recordAlways(reason string) {
	if e.journalDir == "" || len(e.history) == 0 {
		return
	}
	if e.store.AutoWriteRefusal() != nil {
		return // a refused key seals nothing; without the key of an encrypted store, no plaintext journal
	}
	if !e.goPrivate() {
		return
	}
	if err := e.openJournal(); err != nil {
		e.journalFailed(err)
		return
	}
	e.commit(reason)
}

// journalFailed announces a journal write that failed, once for a run of
// failures of one kind (a full disk, a refused write, a missing folder:
// the same errno, or else the same text), not at every turn of it; the
// live history keeps every message, and the next write that lands writes
// them all (journalLanded says so).
func (e *Engine) journalFailed(err error) {
	kind := err.Error()
	var errno syscall.Errno
	if errors.As(err, &errno) {
		kind = errno.Error()
	}
	if kind == e.journalFailure {
		return
	}
	e.journalFailure = kind
	e.notifyf("journal not written: %v (said once while it lasts; the conversation is kept and written when the journal takes it again)", err)
}

// journalLanded ends a run of journal failures, saying so.
func (e *Engine) journalLanded() {
	if e.journalFailure != "" {
		e.journalFailure = ""
		e.notifyf("journal written again: every message is in it")
	}
}

// forkJournal gives the conversation its own copy of its journal, so that
// two sessions never write into one file. An unbound conversation's journal
// is named by no session (Detach forks it away from the session it leaves),
// so it is kept as it is.
func (e *Engine) forkJournal() error {
	if e.journalDir == "" || e.sess.TranscriptID == "" {
		e.sess.TranscriptID = ""
		return nil
	}
	if e.bound == "" {
		return nil // no session names this journal: it simply moves along
	}
	e.record(journal.ReasonSync) // the copy starts from the current state
	id, err := e.copyJournal(e.sess.TranscriptID)
	if err != nil {
		return err
	}
	e.sess.TranscriptID, e.journal = id, nil
	return nil
}

// copyJournal copies journal id (journal.Fork) and returns the copy's id;
// each damaged line left out of the copy is reported through Notify.
func (e *Engine) copyJournal(id string) (string, error) {
	nid, dropped, err := journal.Fork(e.journalDir, id, e.store.Key())
	for _, w := range dropped {
		e.notifyf("journal: %s; not copied", w.Said())
	}
	return nid, e.landed(err)
}

// Transcript returns what the live conversation's journal recorded; see
// ReadTranscript.
func (e *Engine) Transcript() (Transcript, error) {
	return ReadTranscript(e.journalDir, e.sess.TranscriptID, e.history, e.store.Key())
}

// Transcript is everything a conversation held, for export and search.
type Transcript struct {
	// Messages in the order they first appeared.
	Messages []message.Message
	// Source is SourceJournal, SourceLive or SourceBoth.
	Source string
	// Warnings name the damaged journal lines that were skipped
	// (journal.Warning.Said).
	Warnings []i18n.Text
}

// Where a transcript came from.
const (
	SourceJournal = "journal"
	SourceLive    = "live history"
	SourceBoth    = "journal + live history" // the journal missed some live messages
)

// ReadTranscript returns every message journal id under dir recorded, in
// the order they first appeared (messages a compaction or rewind later
// removed included), followed by the messages of live the journal never
// recorded (it was off, or a write failed). When the journal is off (dir
// ""), absent or empty, it is live alone. It only reads; an id that cannot
// name a journal is ignored. Sealed journal lines are opened with key
// (journal.Messages).
func ReadTranscript(dir, id string, live []message.Message, key seal.Key) (Transcript, error) {
	if dir == "" || !journal.ValidID(id) {
		return Transcript{Messages: live, Source: SourceLive}, nil
	}
	msgs, hashes, warnings, err := journal.Messages(journal.Path(dir, id), key)
	if err != nil {
		return Transcript{}, err
	}
	t := Transcript{Messages: msgs, Source: SourceJournal}
	for _, w := range warnings {
		t.Warnings = append(t.Warnings, w.Said())
	}
	if len(msgs) == 0 {
		t.Messages, t.Source = live, SourceLive
		return t, nil
	}
	recorded := make(map[string]bool, len(hashes))
	for _, h := range hashes {
		recorded[h] = true
	}
	for i, h := range journal.HashHistory(live) {
		if !recorded[h] {
			t.Messages, t.Source = append(t.Messages, live[i]), SourceBoth
		}
	}
	return t, nil
}
