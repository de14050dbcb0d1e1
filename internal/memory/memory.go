package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Version is the version of the notes file this build writes and reads.
const Version = 1

// MaxNoteBytes caps one note (4 KiB): memory is for short facts; longer
// text belongs in a context (/context create).
const MaxNoteBytes = 4 << 10

// sealName is the name the notes file is sealed for (seal.Seal).
const sealName = "memory"

// ErrUnreadable is wrapped by errors about a notes file that cannot be
// read; match it with errors.Is.
var ErrUnreadable = errors.New("memory: unreadable notes file")

// ErrNoNote is wrapped by the error of Forget for a number with no note.
var ErrNoNote = errors.New("memory: no such note")

// Note is one saved note.
type Note struct {
	Text    string    `json:"text"`
	SavedAt time.Time `json:"saved_at"`
}

type file struct {
	Version int    `json:"version"`
	Notes   []Note `json:"notes"`
}

// Store is the notes file of one CHATCLI_HOME.
type Store struct {
	dir string
	key seal.Key
	now func() time.Time
}

// Open returns the store in home/memory, sealing with key when it is set.
// Nothing is created until the first save.
func Open(home string, key seal.Key) *Store {
	return &Store{dir: filepath.Join(home, "memory"), key: key, now: time.Now}
}

// Path is the notes file.
func (s *Store) Path() string { return filepath.Join(s.dir, "notes.json") }

// List returns the notes, oldest first (a note's number is its index + 1);
// none when the file does not exist. Errors wrap ErrUnreadable or
// seal.ErrWrongKey and name the file.
func (s *Store) List() ([]Note, error) {
	data, err := storefile.ReadFile(s.Path())
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, s.Path(), err)
	}
	if seal.IsSealed(data) {
		if s.key.IsZero() {
			return nil, i18n.Errorf("%w: %s is encrypted and CHATCLI_ENCRYPTION_KEY is not set", ErrUnreadable, s.Path())
		}
		if data, err = seal.Open(s.key, sealName, data); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Path(), err)
		}
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, s.Path(), err)
	}
	if f.Version > Version {
		return nil, i18n.Errorf("%w: %s has version %d; this build reads up to %d", ErrUnreadable, s.Path(), f.Version, Version)
	}
	return f.Notes, nil
}

// Save appends text as the newest note and returns its number. Empty text
// and text over MaxNoteBytes are refused; so is every change over a file
// List cannot read (it is left as it is).
func (s *Store) Save(text string) (int, error) {
	text = strings.TrimSpace(strings.ToValidUTF8(text, "\uFFFD"))
	if text == "" {
		return 0, i18n.Errorf("memory: nothing to save")
	}
	if len(text) > MaxNoteBytes {
		return 0, i18n.Errorf("memory: a note holds at most %d bytes (this one has %d); a context keeps longer text (/context create, or `chatcli context create`)", MaxNoteBytes, len(text))
	}
	n := 0
	err := s.change(func(notes []Note) ([]Note, error) {
		notes = append(notes, Note{Text: text, SavedAt: s.now().UTC().Truncate(time.Second)})
		n = len(notes)
		return notes, nil
	})
	return n, err
}

// Forget removes note number n (1-based, as List numbers them) and returns
// it. A number with no note is an error wrapping ErrNoNote.
func (s *Store) Forget(n int) (Note, error) {
	var gone Note
	err := s.change(func(notes []Note) ([]Note, error) {
		if n < 1 || n > len(notes) {
			if len(notes) == 0 {
				return nil, i18n.Errorf("%w: %d (there are no notes)", ErrNoNote, n)
			}
			return nil, i18n.Errorf("%w: %d (there are %d notes; /memory list or `chatcli memory list` numbers them)", ErrNoNote, n, len(notes))
		}
		gone = notes[n-1]
		return append(notes[:n-1:n-1], notes[n:]...), nil
	})
	return gone, err
}

// change reads the notes under the lock, applies edit and writes the
// result durably.
func (s *Store) change(edit func([]Note) ([]Note, error)) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	notes, err := s.List()
	if err != nil {
		return err
	}
	if notes, err = edit(notes); err != nil {
		return err
	}
	data, err := json.Marshal(file{Version: Version, Notes: notes})
	if err != nil {
		return err
	}
	if !s.key.IsZero() {
		if data, err = seal.Seal(s.key, sealName, data); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(s.Path(), data)
}

// lock takes the notes' lock (its file never a link or a FIFO:
// storefile.NewLock) and returns its release.
func (s *Store) lock() (unlock func(), err error) {
	lock, err := storefile.NewLock(filepath.Join(s.dir, ".lock"), os.O_CREATE|os.O_RDWR)
	if err == nil {
		err = lock.Lock()
	}
	if err != nil {
		return nil, fmt.Errorf("memory: lock %s: %w", s.dir, err)
	}
	return func() { lock.Unlock() }, nil
}

// rewrite replaces the notes file, under the lock, with what convert
// makes of its bytes when it reports a change; a missing file is no change.
func (s *Store) rewrite(convert func(data []byte) ([]byte, bool, error)) (bool, error) {
	if _, err := os.Lstat(s.Path()); os.IsNotExist(err) {
		return false, nil
	}
	unlock, err := s.lock()
	if err != nil {
		return false, err
	}
	defer unlock()
	data, err := storefile.ReadFile(s.Path())
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrUnreadable, s.Path(), err)
	}
	out, changed, err := convert(data)
	if err != nil || !changed {
		return false, err
	}
	return true, atomicfile.WriteFile(s.Path(), out)
}

// Rekey seals the notes file under the store's key (seal.Reseal), opening
// it with that key or old; a plaintext file is sealed. It reports whether
// the file changed (false too when there is none). The file is replaced in
// one atomic write, under the lock; errors are Reseal's and the write's,
// the file untouched.
func (s *Store) Rekey(old seal.Key) (bool, error) {
	return s.rewrite(func(data []byte) ([]byte, bool, error) { return seal.Reseal(data, sealName, old, s.key) })
}

// Decrypt writes the notes file back in plaintext, opening it with the
// store's key (`chatcli storage decrypt`). It reports whether the file
// changed (false for a plaintext one or none). The file is replaced in one
// atomic write, under the lock; a file that does not open wraps
// seal.ErrWrongKey, untouched.
func (s *Store) Decrypt() (bool, error) {
	return s.rewrite(func(data []byte) ([]byte, bool, error) {
		if !seal.IsSealed(data) {
			return nil, false, nil
		}
		plain, err := seal.Open(s.key, sealName, data)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", s.Path(), err)
		}
		return plain, true, nil
	})
}
