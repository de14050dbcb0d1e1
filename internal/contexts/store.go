package contexts

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// Version is the version of the context files this build writes and reads.
const Version = 1

// Errors of the store; match them with errors.Is.
var (
	ErrNotFound   = errors.New("contexts: no such context")
	ErrExists     = errors.New("contexts: context exists")
	ErrUnreadable = errors.New("contexts: unreadable context file")
	ErrTooLarge   = errors.New("contexts: too large")
)

// Context is one snapshot.
type Context struct {
	Version   int         `json:"version"`
	Name      string      `json:"name"`
	CreatedAt time.Time   `json:"created_at"`
	Sources   []string    `json:"sources"`
	Files     []FileEntry `json:"files"`
	Skipped   Skipped     `json:"skipped"`
	Chunks    []Chunk     `json:"chunks"`
}

// FileEntry is one file of a snapshot: its path (see doc.go), its size in
// bytes and how many chunks it made.
type FileEntry struct {
	Path   string `json:"path"`
	Bytes  int    `json:"bytes"`
	Chunks int    `json:"chunks"`
}

// Skipped counts the files a snapshot left out: matched by a .gitignore,
// or binary.
type Skipped struct {
	Ignored int `json:"ignored"`
	Binary  int `json:"binary"`
}

// Chunk is one piece of a file's text: the file's path, the 1-based line
// it starts at, the text.
type Chunk struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Bytes is the size of the text the snapshot holds.
func (c *Context) Bytes() int {
	n := 0
	for _, ch := range c.Chunks {
		n += len(ch.Text)
	}
	return n
}

// Store is the contexts folder of one CHATCLI_HOME.
type Store struct {
	dir string
	key seal.Key
	now func() time.Time
}

// Open returns the store in home/contexts, sealing with key when it is
// set. Nothing is created until the first Create.
func Open(home string, key seal.Key) *Store {
	return &Store{dir: filepath.Join(home, "contexts"), key: key, now: time.Now}
}

// Dir is the contexts folder.
func (s *Store) Dir() string { return s.dir }

// path maps a context name to its file; the name must follow the session
// name rule.
func (s *Store) path(name string) (string, string, error) {
	n, err := session.NormalizeName(name)
	if err != nil {
		return "", "", i18n.Errorf("context name: %w", err)
	}
	return n, filepath.Join(s.dir, n+".json"), nil
}

// Create snapshots paths (files or folders; relative ones from the working
// folder) as context name and returns it. Errors: ErrExists, ErrTooLarge
// (saying the size found and the cap), a path that cannot be read (named),
// or the write's.
func (s *Store) Create(name string, paths []string) (*Context, error) {
	n, path, err := s.path(name)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, i18n.Errorf("context %q: name at least one file or folder", n)
	}
	if _, err := os.Lstat(path); err == nil {
		return nil, i18n.Errorf("%w: %q; delete it first (/context delete %s, or `chatcli context delete %s --yes`), or choose another name", ErrExists, n, n, n)
	}
	c := &Context{Version: Version, Name: n, CreatedAt: s.now().UTC().Truncate(time.Second)}
	if err := collect(c, paths); err != nil {
		return nil, fmt.Errorf("context %q: %w", n, err)
	}
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	if !s.key.IsZero() {
		if data, err = seal.Seal(s.key, "context:"+n, data); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("contexts: %w", err)
	}
	if err := atomicfile.CreateFile(path, data); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%w: %q", ErrExists, n)
		}
		return c, err
	}
	return c, nil
}

// Load reads context name. Errors wrap ErrNotFound, ErrUnreadable or
// seal.ErrWrongKey and name the file.
func (s *Store) Load(name string) (*Context, error) {
	n, path, err := s.path(name)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	if os.IsNotExist(err) {
		return nil, i18n.Errorf("%w: %q (/context list or `chatcli context list` shows them)", ErrNotFound, n)
	}
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, path, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, path, err)
	}
	if seal.IsSealed(data) {
		if s.key.IsZero() {
			return nil, i18n.Errorf("%w: %s is encrypted and CHATCLI_ENCRYPTION_KEY is not set", ErrUnreadable, path)
		}
		if data, err = seal.Open(s.key, "context:"+n, data); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	var c Context
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, path, err)
	}
	if c.Version > Version {
		return nil, i18n.Errorf("%w: %s has version %d; this build reads up to %d", ErrUnreadable, path, c.Version, Version)
	}
	return &c, nil
}

// List returns the names of the stored contexts, sorted.
func (s *Store) List() ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contexts: %w", err)
	}
	var names []string
	for _, d := range ents {
		if n, ok := strings.CutSuffix(d.Name(), ".json"); ok && d.Type().IsRegular() && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// Delete removes context name (ErrNotFound when there is none). Sessions
// that attached it skip it from then on, with a notice.
func (s *Store) Delete(name string) error {
	n, path, err := s.path(name)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); os.IsNotExist(err) {
		return fmt.Errorf("%w: %q", ErrNotFound, n)
	}
	return atomicfile.Remove(path)
}

// Rekey seals context name under the store's key (seal.Reseal), opening
// it with that key or old; a plaintext file is sealed. It reports whether
// the file changed. The file is replaced in one atomic write; errors are
// Reseal's and the write's, the file untouched.
func (s *Store) Rekey(name string, old seal.Key) (bool, error) {
	n, path, err := s.path(name)
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrUnreadable, path, err)
	}
	out, changed, err := seal.Reseal(data, "context:"+n, old, s.key)
	if err != nil || !changed {
		return false, err
	}
	return true, atomicfile.WriteFile(path, out)
}

// Decrypt writes context name back in plaintext, opening it with the
// store's key (`chatcli storage decrypt`). It reports whether the file
// changed (false for a plaintext one). The file is replaced in one atomic
// write; a file that does not open wraps seal.ErrWrongKey, untouched.
func (s *Store) Decrypt(name string) (bool, error) {
	n, path, err := s.path(name)
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false, fmt.Errorf("%w: %s: %v", ErrUnreadable, path, err)
	}
	if !seal.IsSealed(data) {
		return false, nil
	}
	plain, err := seal.Open(s.key, "context:"+n, data)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return true, atomicfile.WriteFile(path, plain)
}
