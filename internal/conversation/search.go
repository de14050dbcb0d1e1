package conversation

import (
	"fmt"
	"os"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/search"
	"github.com/chatcli/chatcli/internal/session"
)

// SearchCache keeps the in-memory index of one transcript while it is
// unchanged, and the persistent index of the store open, so repeated
// queries in one process are answered from memory.
type SearchCache struct {
	key string
	ix  *search.Index
	// store and index are the persistent index of the store searched.
	store *session.Store
	index *index.Index
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
func (e *Engine) SearchTranscript(query string, limit int) ([]search.Hit, []i18n.Text, error) {
	var warnings []i18n.Text
	key := fmt.Sprintf("%s|%d|%s", e.sess.TranscriptID, len(e.history), fileKey(journal.Path(e.journalDir, e.sess.TranscriptID)))
	ix, err := e.transcriptCache.get(key, func() (*search.Index, error) {
		t, err := e.Transcript()
		if err != nil {
			return nil, err
		}
		for _, w := range t.Warnings {
			warnings = append(warnings, w)
		}
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
// the index kept open between searches.
func (e *Engine) SearchSessions(query string, limit int) ([]search.Hit, []i18n.Text, error) {
	hits, warnings, err := e.SearchSessionHits(query, limit)
	return searchHitsIn(e.lang, hits), warnings, err
}

// SearchSessionHits is SearchSessions with the index's hits as they are:
// session, deleted mark and forks apart (index.Hit).
func (e *Engine) SearchSessionHits(query string, limit int) ([]index.Hit, []i18n.Text, error) {
	return SearchStore(e.store, e.journalDir, query, index.Filter{}, limit, &e.sessionsCache, nil)
}

// SearchAll is SearchStore without filters, its hits as search.Hits: the
// source of each is HitSource's. cache may be nil.
func SearchAll(st *session.Store, journalDir, query string, limit int, cache *SearchCache) ([]search.Hit, []i18n.Text, error) {
	hits, warnings, err := SearchStore(st, journalDir, query, index.Filter{}, limit, cache, nil)
	return SearchHits(hits), warnings, err
}

// SearchHits converts the index's hits to search.Hits, each source as
// HitSource shows it.
func SearchHits(hits []index.Hit) []search.Hit { return searchHitsIn(nil, hits) }

// searchHitsIn is SearchHits with each source as HitSourceIn says it in
// lang.
func searchHitsIn(lang *i18n.Printer, hits []index.Hit) []search.Hit {
	out := make([]search.Hit, 0, len(hits))
	for _, h := range hits {
		out = append(out, search.Hit{Doc: search.Doc{Source: HitSourceIn(lang, h), Position: h.Position, Role: h.Role},
			Score: h.Score, Snippet: h.Snippet})
	}
	return out
}

// HitSource is how a hit's session is shown on one line: its name,
// " (deleted)" after a deleted session's, "journal:<id> (deleted)" when no
// name is known, then " (also in A, B)" naming the forks holding the same
// message (the first three, and how many more).
func HitSource(h index.Hit) string { return HitSourceIn(nil, h) }

// HitSourceIn is HitSource in lang (nil: English); the names stay as they
// are.
func HitSourceIn(lang *i18n.Printer, h index.Hit) string {
	s := h.Session
	if s == "" {
		s = journal.LineName(h.Journal)
	}
	if h.Deleted {
		s += lang.Sprintf(" (deleted)")
	}
	if m := h.Members; len(m) > 3 {
		s += lang.Sprintf(" (also in %s and %d more)", strings.Join(m[:3], ", "), len(m)-3)
	} else if len(m) > 0 {
		s += lang.Sprintf(" (also in %s)", strings.Join(m, ", "))
	}
	return s
}

// SearchStore searches every session and journal of st through its
// persistent index (index.Dir), which it brings up to date first (new
// journal records only; see index.Index.Sync). progress, when set, hears
// how far a build has read. cache keeps the index open between calls; it
// may be nil.
func SearchStore(st *session.Store, journalDir, query string, f index.Filter, limit int, cache *SearchCache, progress func(done, total int64)) ([]index.Hit, []i18n.Text, error) {
	var ix *index.Index
	if cache != nil && cache.store == st && cache.index != nil {
		ix = cache.index
	} else {
		ix = index.Open(index.Options{Store: st, JournalDir: journalDir, Progress: progress})
		if cache != nil {
			cache.store, cache.index = st, ix
		} else {
			defer ix.Close()
		}
	}
	return ix.Find(query, f, limit)
}
