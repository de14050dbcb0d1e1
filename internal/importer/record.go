package importer

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/storefile"
)

// RecordFileName is the import record's name under $CHATCLI_HOME.
const RecordFileName = "imports.json"

// recordLockTimeout bounds the wait for another import run.
const recordLockTimeout = 10 * time.Second

// ErrBusy is returned by OpenRecord when another import holds the record.
var ErrBusy = i18n.Errorf("importer: another import is running")

// ErrCorrupt is wrapped by OpenRecord's error for a record that cannot be
// parsed; the file is left as it is.
var ErrCorrupt = i18n.Errorf("importer: damaged import record")

// Entry is what was imported of one conversation.
type Entry struct {
	// Source is the file it was last read from.
	Source string `json:"source"`
	// Session is the session it went to; Messages how many of the
	// conversation's messages (as the reader gives them) are in it.
	Session  string    `json:"session"`
	Messages int       `json:"messages"`
	At       time.Time `json:"imported_at"`
	// Leaf is the id of the conversation's last entry (Conversation.Leaf),
	// which a resumed conversation's first entry names; "" for none.
	Leaf string `json:"leaf,omitempty"`
}

type recordDocument struct {
	Version       int              `json:"version"`
	Conversations map[string]Entry `json:"conversations"`
}

// Record is the import record of one $CHATCLI_HOME, held (locked) from
// OpenRecord to Close.
type Record struct {
	path    string
	lock    *flock.Flock
	entries map[string]Entry
	pending int // entries put since the last write
}

// OpenRecord locks and reads $CHATCLI_HOME/imports.json (see doc.go); a
// missing file is an empty record. Errors: ErrBusy after waiting 10 s for
// another import, ErrCorrupt (with the path) for a file that cannot be
// parsed, or the read error.
func OpenRecord(home string) (*Record, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, i18n.Errorf("importer: %w", err)
	}
	lock, err := storefile.NewLock(filepath.Join(home, ".imports.lock"), os.O_CREATE|os.O_RDWR)
	if err != nil {
		return nil, i18n.Errorf("importer: %w", err)
	}
	r := &Record{path: filepath.Join(home, RecordFileName), lock: lock}
	ctx, cancel := context.WithTimeout(context.Background(), recordLockTimeout)
	defer cancel()
	ok, err := r.lock.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		return nil, i18n.Errorf("%w (lock %s)", ErrBusy, r.lock.Path())
	}
	data, err := storefile.ReadFile(r.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.entries = map[string]Entry{}
		return r, nil
	case err != nil:
		r.Close()
		return nil, i18n.Errorf("importer: read %s: %w", r.path, err)
	}
	var d recordDocument
	if err := json.Unmarshal(data, &d); err != nil || d.Version != 1 {
		if err == nil {
			err = i18n.Errorf("version %d, want 1", d.Version)
		}
		r.Close()
		return nil, i18n.Errorf("%w: %s: %v (move it aside to start a new one)", ErrCorrupt, r.path, err)
	}
	if d.Conversations == nil {
		d.Conversations = map[string]Entry{}
	}
	r.entries = d.Conversations
	return r, nil
}

// Path is the record file's path.
func (r *Record) Path() string { return r.path }

// key names a conversation in the record: "<tool>/<id>".
func key(tool, id string) string { return tool + "/" + id }

// Get returns the entry of conversation id of tool.
func (r *Record) Get(tool, id string) (Entry, bool) {
	e, ok := r.entries[key(tool, id)]
	return e, ok
}

// Find returns the entry of a conversation of tool that match accepts,
// and its id (the lowest such id when several do).
func (r *Record) Find(tool string, match func(id string, e Entry) bool) (string, Entry, bool) {
	return findIn(r.entries, tool, match)
}

// findIn is Find over entries, keyed as the record keys them.
func findIn(entries map[string]Entry, tool string, match func(id string, e Entry) bool) (string, Entry, bool) {
	var found string
	var fe Entry
	for k, e := range entries {
		id, ok := strings.CutPrefix(k, tool+"/")
		if ok && match(id, e) && (found == "" || id < found) {
			found, fe = id, e
		}
	}
	return found, fe, found != ""
}

// recordFlushEvery is how many entries Put gathers before writing the
// record: a run over thousands of conversations writes it every 64, not
// each time (it is rewritten whole). The entries not yet written are
// recovered by the next run from the sessions' imported_from members
// (Writer.adopt).
const recordFlushEvery = 64

// Put sets the entry of conversation id of tool; every recordFlushEvery
// entries it writes the record (Flush).
func (r *Record) Put(tool, id string, e Entry) error {
	r.entries[key(tool, id)] = e
	if r.pending++; r.pending < recordFlushEvery {
		return nil
	}
	return r.Flush()
}

// Flush writes the record durably (atomicfile.WriteFile) when entries
// were put since the last write; on an error the file is as it was (or,
// for atomicfile.ErrNotDurable, written but maybe not durable).
func (r *Record) Flush() error {
	if r.pending == 0 {
		return nil
	}
	data, err := json.MarshalIndent(recordDocument{Version: 1, Conversations: r.entries}, "", " ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(r.path, append(data, '\n')); err != nil && !errors.Is(err, atomicfile.ErrNotDurable) {
		return i18n.Errorf("importer: write %s: %w", r.path, err)
	}
	r.pending = 0
	return nil
}

// Close writes what Put gathered (Flush) and releases the record's lock;
// the error is Flush's.
func (r *Record) Close() error {
	err := r.Flush()
	r.lock.Unlock()
	return err
}
