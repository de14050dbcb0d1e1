package conversation

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
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
	if e.sess.TranscriptID == "" {
		e.sess.TranscriptID = journal.NewID()
	}
	j, warnings, err := journal.Open(e.journalDir, e.sess.TranscriptID)
	for _, w := range warnings {
		e.notify("journal: " + w.String())
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
	if e.journalDir == "" || len(e.history) == 0 {
		return
	}
	err := e.openJournal()
	if err == nil {
		_, err = e.journal.Sync(e.history, reason)
	}
	if err != nil {
		e.notify(fmt.Sprintf("journal not written: %v", err))
	}
}

// forkJournal gives the conversation its own copy of its journal, so that
// two sessions never write into one file.
func (e *Engine) forkJournal() error {
	if e.journalDir == "" || e.sess.TranscriptID == "" {
		e.sess.TranscriptID = ""
		return nil
	}
	e.record(journal.ReasonSync) // the copy starts from the current state
	id, err := journal.Fork(e.journalDir, e.sess.TranscriptID)
	if err != nil {
		return err
	}
	e.sess.TranscriptID, e.journal = id, nil
	return nil
}

// Transcript returns every message the live conversation's journal
// recorded and its source; see ReadTranscript.
func (e *Engine) Transcript() ([]message.Message, string, error) {
	return ReadTranscript(e.journalDir, e.sess.TranscriptID, e.history)
}

// ReadTranscript returns every message journal id under dir recorded, in
// the order they first appeared (messages a compaction or rewind later
// removed included), with source SourceJournal; when the journal is off
// (dir ""), absent or empty, it returns live with SourceLive. It only
// reads.
func ReadTranscript(dir, id string, live []message.Message) ([]message.Message, string, error) {
	if dir != "" && id != "" {
		msgs, err := journal.Messages(journal.Path(dir, id))
		if err != nil {
			return nil, "", err
		}
		if len(msgs) > 0 {
			return msgs, SourceJournal, nil
		}
	}
	return live, SourceLive, nil
}

// Where a transcript came from.
const (
	SourceJournal = "journal"
	SourceLive    = "live history"
)
