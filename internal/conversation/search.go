package conversation

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/search"
	"github.com/chatcli/chatcli/internal/session"
)

// SearchCache keeps a built index while what it was built from is
// unchanged, so repeated queries in one process are answered from memory
// (the index is never written to disk).
type SearchCache struct {
	key string
	ix  *search.Index
}

// get returns the cached index for key, building it with build on a miss.
// A nil cache always builds.
func (c *SearchCache) get(key string, build func() (*search.Index, error)) (*search.Index, error) {
	if c != nil && c.ix != nil && c.key == key {
		return c.ix, nil
	}
	ix, err := build()
	if err == nil && c != nil {
		c.key, c.ix = key, ix
	}
	return ix, err
}

// fileKey identifies a file's current content cheaply: size and mtime.
func fileKey(path string) string {
	st, err := os.Lstat(path)
	if err != nil {
		return path + ":none"
	}
	return fmt.Sprintf("%s:%d:%d", path, st.Size(), st.ModTime().UnixNano())
}

// SearchTranscript ranks every message of the live conversation's
// transcript (ReadTranscript) and returns the best limit hits. The index is
// reused while the journal and the live history are unchanged.
func (e *Engine) SearchTranscript(query string, limit int) ([]search.Hit, []string, error) {
	var warnings []string
	key := fmt.Sprintf("%s|%d|%s", e.sess.TranscriptID, len(e.history), fileKey(journal.Path(e.journalDir, e.sess.TranscriptID)))
	ix, err := e.transcriptCache.get(key, func() (*search.Index, error) {
		t, err := e.Transcript()
		if err != nil {
			return nil, err
		}
		warnings = t.Warnings
		ix := search.NewIndex()
		ix.Add(search.MessageDocs(t.Source, t.Messages)...)
		return ix, nil
	})
	if err != nil {
		return nil, warnings, err
	}
	hits, err := ix.Search(query, limit)
	return hits, warnings, err
}

// SearchSessions is SearchAll over the engine's store and journals, with
// the index kept while no session or journal changed.
func (e *Engine) SearchSessions(query string, limit int) ([]search.Hit, []string, error) {
	return SearchAll(e.store, e.journalDir, query, limit, &e.sessionsCache)
}

// SearchAll ranks the messages of every session (its whole transcript when
// it has a journal) and of every journal no session names (source
// "journal:<id>"), and returns the best limit hits. Sessions that cannot be
// read are skipped and named in the warnings. Nothing is written. cache may
// be nil.
func SearchAll(st *session.Store, journalDir, query string, limit int, cache *SearchCache) ([]search.Hit, []string, error) {
	list, err := st.List()
	if err != nil {
		return nil, nil, err
	}
	var key strings.Builder
	for _, h := range list {
		fmt.Fprintf(&key, "%s:%d:%d:%s|", h.Name, h.Revision, h.SizeBytes, h.UpdatedAt)
	}
	var journals []os.DirEntry
	if journalDir != "" {
		journals, _ = os.ReadDir(journalDir)
		for _, d := range journals {
			key.WriteString(fileKey(filepath.Join(journalDir, d.Name())) + "|")
		}
	}
	var warnings []string
	ix, err := cache.get(key.String(), func() (*search.Index, error) {
		ix := search.NewIndex()
		named := map[string]bool{}
		for _, h := range list {
			s, err := st.Load(h.Name)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("skipped session %q: %v", h.Name, err))
				continue
			}
			named[s.TranscriptID] = true
			t, err := ReadTranscript(journalDir, s.TranscriptID, s.History, st.Key())
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("session %q: journal unreadable (%v); searched its history", h.Name, err))
				t = Transcript{Messages: s.History}
			}
			warnings = append(warnings, t.Warnings...)
			ix.Add(search.MessageDocs(h.Name, t.Messages)...)
		}
		for _, d := range journals {
			id, ok := strings.CutSuffix(d.Name(), ".jsonl")
			if !ok || named[id] || !journal.ValidID(id) {
				continue
			}
			t, err := ReadTranscript(journalDir, id, nil, st.Key())
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("skipped journal %s: %v", id, err))
				continue
			}
			warnings = append(warnings, t.Warnings...)
			ix.Add(search.MessageDocs("journal:"+id, t.Messages)...)
		}
		return ix, nil
	})
	if err != nil {
		return nil, warnings, err
	}
	hits, err := ix.Search(query, limit)
	return hits, warnings, err
}
