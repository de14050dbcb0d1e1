// Checking the encryption key against the store before writing with it.

package session

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/i18n"
)

// ErrKeyRefused is wrapped by every sealed write of a store whose key
// failed to open one of its sessions (KeyRefusal): the error reads
// `session: not written: the encryption key did not open session "X";
// nothing is written under it — restart with the right
// CHATCLI_ENCRYPTION_KEY`.
var ErrKeyRefused = errors.New("session: not written")

// ErrStoreEncrypted is returned by AutoWriteRefusal when the store has no
// key but holds sealed sessions: writes nobody asked for (autosaves,
// mirrors, journals) would put a conversation in plaintext next to them.
var ErrStoreEncrypted = errors.New("the store is encrypted and CHATCLI_ENCRYPTION_KEY is not set")

// keyProbeFiles is how many of the newest session files the key check
// reads.
const keyProbeFiles = 5

// keyState is what the store knows of its key against its files.
type keyState struct {
	probe     sync.Once
	mu        sync.Mutex
	refused   string // the session the key did not open; "" when none
	encrypted bool   // a sealed session was met without a key
}

// refuseKey records that the store's key did not open session name.
func (s *Store) refuseKey(name string) {
	s.keys.mu.Lock()
	if s.keys.refused == "" {
		s.keys.refused = name
	}
	s.keys.mu.Unlock()
}

// sawSealed records that a sealed session was met without a key.
func (s *Store) sawSealed() {
	s.keys.mu.Lock()
	s.keys.encrypted = true
	s.keys.mu.Unlock()
}

// probeKey checks, once per store, the key against the newest
// keyProbeFiles session files (by mtime): with a key, when some of them
// are sealed and none of their headers opens, the key is refused; without
// one, a sealed file marks the store encrypted.
func (s *Store) probeKey() {
	s.keys.probe.Do(func() {
		sealed, opened := "", false
		for _, p := range s.newestFiles(keyProbeFiles) {
			f, err := openRead(p)
			if err != nil {
				continue
			}
			magic := make([]byte, len(containerMagic))
			st, err := f.Stat()
			if _, rerr := f.ReadAt(magic, 0); err == nil && rerr == nil && IsSealedFile(magic) {
				_, _, err = openHeader(s.key, nameOf(p), f, st.Size())
				switch {
				case err == nil:
					opened = true
				case errors.Is(err, ErrEncrypted):
					s.sawSealed()
				case sealed == "":
					sealed = nameOf(p)
				}
			}
			f.Close()
		}
		if sealed != "" && !opened && !s.key.IsZero() {
			s.refuseKey(sealed)
		}
	})
}

// newestFiles returns the paths of the n newest session files.
func (s *Store) newestFiles(n int) []string {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	type file struct {
		path  string
		mtime int64
	}
	var files []file
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), fileExt); !ok || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil {
			files = append(files, file{filepath.Join(s.dir, e.Name()), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mtime > files[j].mtime })
	var out []string
	for _, f := range files[:min(n, len(files))] {
		out = append(out, f.path)
	}
	return out
}

// KeyRefusal returns the reason this store writes nothing sealed (an
// error wrapping ErrKeyRefused naming the session), or nil. The key is
// refused once it failed to open a sealed session (a wrong key or a
// damaged file: AES-GCM cannot tell them apart), or when, at the first
// call, none of the newest sealed sessions' headers opens with it (a key
// that would mix with another in one store). Without a key it returns nil.
func (s *Store) KeyRefusal() error {
	if s.key.IsZero() {
		return nil
	}
	s.probeKey()
	s.keys.mu.Lock()
	name := s.keys.refused
	s.keys.mu.Unlock()
	if name == "" {
		return nil
	}
	return i18n.Errorf("%w: the encryption key did not open session %q; nothing is written under it — restart with the right CHATCLI_ENCRYPTION_KEY",
		ErrKeyRefused, name)
}

// KeyRefused reports whether KeyRefusal is not nil.
func (s *Store) KeyRefused() bool { return s.KeyRefusal() != nil }

// AutoWriteRefusal returns why nothing a person did not ask for (an
// autosave, a mirror, a journal) may be written now, or nil: KeyRefusal's
// error; or, without a key, ErrStoreEncrypted when a sealed session was
// met (a load refused with ErrEncrypted) or is among the newest session
// files. An explicit save without a key stays allowed (in plaintext).
func (s *Store) AutoWriteRefusal() error {
	if err := s.KeyRefusal(); err != nil {
		return err
	}
	if !s.key.IsZero() {
		return nil
	}
	s.probeKey()
	s.keys.mu.Lock()
	encrypted := s.keys.encrypted
	s.keys.mu.Unlock()
	if encrypted {
		return ErrStoreEncrypted
	}
	return nil
}
