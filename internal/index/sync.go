package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// job is one source to read into the index: a journal from its
// watermark, or a session snapshot whole.
type job struct {
	src  *source
	path string         // the journal's path (journal sources)
	head session.Header // the session (snapshot sources)
	// version is the snapshot's Version, which src takes once the
	// documents read are in a written segment.
	version string
	bytes   int64 // what is left to read, for progress
}

// Sync brings the index up to date with the store and its journals: what
// a journal appended since the index last read it is indexed (its new
// records only), a session without a journal is indexed again when its
// snapshot changed, and the documents of journals and sessions deleted or
// replaced become tombstones. When the log is due to be folded or too
// many small segments have gathered, a merge starts in the background
// (see maybeMerge); Sync does not wait for it. An index file that cannot be trusted (ErrDamaged,
// ErrTooNew, sealed with another key) is reported in the warnings and the
// whole index rebuilt. Sessions and journals that cannot be read are
// named in the warnings and skipped. Errors: the store's key refusal
// (session.ErrKeyRefused: nothing is written under a wrong key); without
// a key, a sealed index (session.ErrStoreEncrypted: nothing is read or
// written); the file system's.
func (ix *Index) Sync() ([]i18n.Text, error) {
	if err := ix.o.Store.KeyRefusal(); err != nil {
		return nil, err // a wrong key writes nothing, the index included
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	unlock, err := ix.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	var warnings []i18n.Text
	if !ix.manifestCurrent() {
		err = ix.loadCurrent()
	}
	ix.manInfo = nil // until this Sync has stored or checked the manifest
	if ix.key.IsZero() && errors.Is(err, ErrKeySetting) {
		return nil, ix.sealedWithoutKey(err)
	}
	if untrusted(err) {
		var w i18n.Text
		if w, err = ix.reset(err); err == nil {
			warnings = append(warnings, w)
		}
	}
	if err != nil {
		return warnings, err
	}
	prev, dead, next := ix.man.snap(), slices.Clone(ix.man.Dead), ix.man.NextSlot
	jobs, w, err := ix.plan()
	warnings = append(warnings, w...)
	if err != nil {
		return warnings, err
	}
	if len(jobs) == 0 && ix.man.diff(prev).empty(dead, next) {
		ix.noteManifest()
		ix.maybeMerge()
		return warnings, nil
	}
	var total int64
	for _, j := range jobs {
		total += j.bytes
	}
	if ix.logged(total) {
		w, err = ix.runLogged(jobs, prev)
		ix.removeStrays()
	} else {
		w, err = ix.run(jobs)
	}
	warnings = append(warnings, w...)
	if err == nil {
		ix.noteManifest()
		ix.maybeMerge()
	}
	return warnings, err
}

// sealedWithoutKey is the error of a Sync without a key over a sealed
// index (cause says which file): the index is left as it is, as every
// sealed file of the store is without the key (session.ErrStoreEncrypted),
// rather than replaced by a plaintext index of the plaintext sessions
// alone.
func (ix *Index) sealedWithoutKey(cause error) error {
	ix.closeSegments()
	ix.man, ix.dead = nil, nil
	return i18n.Errorf("%w: the search index in %s is sealed, and is left as it is (set the key to search, or remove that folder to index the plaintext sessions alone; %v)",
		session.ErrStoreEncrypted, ix.dir, cause)
}

// loadCurrent reads the manifest and opens its segments, then applies
// the entries of its log.
func (ix *Index) loadCurrent() error {
	m, err := loadManifest(ix.dir, ix.key)
	if err == nil {
		err = ix.setManifest(m)
	}
	if err == nil {
		err = ix.replayLog()
	}
	return err
}

// manifestCurrent reports whether the manifest on disk is the one this
// Index last read or wrote (same file, size and modification time) and
// its log has the length this Index knows, so that an update after one
// turn need not decode them again. Every manifest write replaces the file
// (rename) and every other write appends to the log, so another
// process's write is seen.
func (ix *Index) manifestCurrent() bool {
	info, err := os.Lstat(filepath.Join(ix.dir, manifestName))
	if err != nil || ix.man == nil || ix.manInfo == nil || !os.SameFile(info, ix.manInfo) ||
		info.Size() != ix.manInfo.Size() || !info.ModTime().Equal(ix.manInfo.ModTime()) {
		return false
	}
	if ix.man.Log == "" {
		return true
	}
	log, err := os.Lstat(filepath.Join(ix.dir, ix.man.Log))
	return err == nil && log.Size() == ix.logEnd // another process appended, or a crash cut an append
}

// noteManifest remembers the manifest and log on disk as the ones in
// memory.
func (ix *Index) noteManifest() {
	if info, err := os.Lstat(filepath.Join(ix.dir, manifestName)); err == nil {
		ix.manInfo = info
	}
}

// plan compares the manifest with the store and returns what to read.
// Sources gone from the store are retired; the manifest is changed in
// memory only.
func (ix *Index) plan() ([]job, []i18n.Text, error) {
	var warnings []i18n.Text
	names := map[string][]string{} // journal id → sessions naming it
	if ix.o.JournalDir != "" {
		entries, err := os.ReadDir(ix.o.JournalDir)
		if err != nil && !os.IsNotExist(err) {
			return nil, warnings, err
		}
		for _, e := range entries {
			if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && journal.ValidID(id) {
				names[id] = []string{} // an orphan journal, until a session names it
			}
		}
	}
	list, err := ix.headers()
	if err != nil {
		return nil, nil, err
	}
	snapshots := map[string]session.Header{}
	for _, h := range list {
		_, hasJournal := names[h.TranscriptID]
		switch {
		case h.Err != nil:
			warnings = append(warnings, i18n.Textf("skipped session %q: %v", h.Name, h.Err))
		case hasJournal && h.TranscriptID != "":
			names[h.TranscriptID] = append(names[h.TranscriptID], h.Name)
		default:
			snapshots[h.Name] = h
		}
	}
	m := ix.man
	byJournal, bySession := map[string]*source{}, map[string]*source{}
	kept := m.Sources[:0]
	for _, s := range m.Sources {
		_, isJournal := names[s.Journal]
		_, isSnapshot := snapshots[s.Session]
		if s.Journal != "" && isJournal || s.Session != "" && isSnapshot {
			kept = append(kept, s)
			byJournal[s.Journal], bySession[s.Session] = s, s
		} else {
			m.retire(s)
		}
	}
	m.Sources = kept
	var jobs []job
	for _, id := range sortedKeys(names) {
		path := journal.Path(ix.o.JournalDir, id)
		info, err := storefile.Lstat(path) // a link is refused, never followed
		if err != nil {
			warnings = append(warnings, i18n.Textf("skipped journal %s: %v", id, err))
			continue
		}
		s := byJournal[id]
		if s != nil && info.Size() < s.Pos.Offset { // replaced by a shorter file
			m.drop(s)
			s = nil
		}
		if s == nil {
			s = m.newSource(id, "")
		}
		s.Names = slices.Sorted(slices.Values(names[id]))
		if len(s.Names) > 0 {
			s.LastName = s.Names[0]
		}
		if info.Size() > s.Pos.Offset {
			jobs = append(jobs, job{src: s, path: path, bytes: info.Size() - s.Pos.Offset})
		}
	}
	ix.nameOrphans(m.Sources)
	for _, name := range sortedKeys(snapshots) {
		h := snapshots[name]
		version := fmt.Sprintf("%d/%d/%d", h.Revision, h.SizeBytes, h.UpdatedAt.UnixNano())
		s := bySession[name]
		if s != nil && s.Version == version {
			continue
		}
		if s != nil {
			m.drop(s)
		}
		s = m.newSource("", name) // its Version is set once its documents are written (worker.flush)
		jobs = append(jobs, job{src: s, head: h, version: version, bytes: h.SizeBytes})
	}
	for _, d := range m.Dead {
		ix.dead[d] = true
	}
	return jobs, warnings, nil
}

// nameOrphans gives the journals no session names, and whose last name
// the index does not know (it was built after the session was deleted),
// the name of the newest trashed session naming them, when there is one.
func (ix *Index) nameOrphans(sources []*source) {
	var trash map[string]string
	for _, s := range sources {
		if s.Journal == "" || len(s.Names) > 0 || s.LastName != "" || s.TrashChecked {
			continue
		}
		if trash == nil {
			trash = map[string]string{}
			entries, _ := ix.o.Store.TrashList()
			for _, e := range entries { // newest first: the first seen wins
				if _, seen := trash[e.TranscriptID]; !seen && e.Err == nil && e.TranscriptID != "" {
					trash[e.TranscriptID] = e.Name
				}
			}
		}
		s.LastName, s.TrashChecked = trash[s.Journal], true
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	})
}
