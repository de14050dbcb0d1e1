package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
)

// StateVersion is the version of the state file this build writes; a
// higher one is refused.
const StateVersion = 1

// SeenPerChannel is how many event ids per webhook channel the state file
// keeps for deduplication.
const SeenPerChannel = 512

// ErrState is wrapped by errors about an unreadable or too-new state file.
var ErrState = errors.New("gateway: state file")

// PrincipalState is what the state file keeps for one principal.
type PrincipalState struct {
	// Bound is the session the principal is bound to, "" when unbound.
	Bound string `json:"bound,omitempty"`
	// Mirror is the mirror of the principal's unbound conversation.
	Mirror string `json:"mirror,omitempty"`
}

type stateDoc struct {
	Version    int                       `json:"version"`
	Principals map[string]PrincipalState `json:"principals"`
	Offsets    map[string]int            `json:"offsets"`
	Seen       map[string][]string       `json:"seen"`
}

// State is the gateway's durable state (the package doc gives the file's
// format). It is safe for concurrent use.
type State struct {
	path string
	mu   sync.Mutex
	doc  stateDoc
}

// OpenState reads the state file under home (CHATCLI_HOME); a missing file
// is an empty state. It is read through internal/storefile like every store
// file: a link, a named pipe or anything else that is not a regular file
// there is refused (the error wraps storefile.ErrNotRegular too) and never
// opened for reading or replaced. Errors wrap ErrState and name the file.
func OpenState(home string) (*State, error) {
	path := filepath.Join(home, "gateway", "state.json")
	s := &State{path: path, doc: stateDoc{Version: StateVersion}}
	data, err := storefile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		s.doc.init()
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w (it is not replaced)", ErrState, path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&s.doc); err != nil {
		return nil, fmt.Errorf("%w %s does not parse: %v (fix or remove it; it is not replaced)", ErrState, path, err)
	}
	if s.doc.Version > StateVersion || s.doc.Version < 1 {
		return nil, fmt.Errorf("%w %s has version %d; this chatcli knows version %d (it is not replaced)", ErrState, path, s.doc.Version, StateVersion)
	}
	s.doc.init()
	return s, nil
}

func (d *stateDoc) init() {
	if d.Principals == nil {
		d.Principals = map[string]PrincipalState{}
	}
	if d.Offsets == nil {
		d.Offsets = map[string]int{}
	}
	if d.Seen == nil {
		d.Seen = map[string][]string{}
	}
}

// Path is the state file's path.
func (s *State) Path() string { return s.path }

// Principal returns what is kept for p (zero when nothing is).
func (s *State) Principal(p Principal) PrincipalState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.doc.Principals[p.String()]
}

// SetPrincipal keeps ps for p and writes the file.
func (s *State) SetPrincipal(p Principal, ps PrincipalState) error {
	return s.update(func(d *stateDoc) { d.Principals[p.String()] = ps })
}

// Offset returns channel's saved update offset (0 when none).
func (s *State) Offset(channel string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.doc.Offsets[channel]
}

// SetOffset keeps channel's update offset and writes the file.
func (s *State) SetOffset(channel string, offset int) error {
	return s.update(func(d *stateDoc) { d.Offsets[channel] = offset })
}

// FirstSeen records event id of channel and reports whether it is new;
// false means the platform delivered it before. Only the newest
// SeenPerChannel ids are kept. The file is written before it returns true.
func (s *State) FirstSeen(channel, id string) (bool, error) {
	s.mu.Lock()
	seen := slices.Contains(s.doc.Seen[channel], id)
	s.mu.Unlock()
	if seen {
		return false, nil
	}
	return true, s.update(func(d *stateDoc) {
		ids := append(d.Seen[channel], id)
		if len(ids) > SeenPerChannel {
			ids = ids[len(ids)-SeenPerChannel:]
		}
		d.Seen[channel] = ids
	})
}

// update applies change and writes the file; when the write fails the
// change is undone in memory and the file is as before (atomicfile).
func (s *State) update(change func(*stateDoc)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, err := json.Marshal(s.doc)
	if err != nil {
		return err
	}
	change(&s.doc)
	data, err := json.MarshalIndent(s.doc, "", "  ")
	if err == nil {
		err = os.MkdirAll(filepath.Dir(s.path), 0o700)
	}
	if err == nil {
		err = atomicfile.WriteFile(s.path, append(data, '\n'))
	}
	if err != nil {
		var prev stateDoc
		json.Unmarshal(old, &prev) // marshalled above: always decodes
		prev.init()
		s.doc = prev
		return fmt.Errorf("gateway: state file %s not written: %w", s.path, err)
	}
	return nil
}
