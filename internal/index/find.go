package index

import (
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/search"
)

// Find parses query (search.ParseQuery: words, "phrases", -exclusions),
// brings the index up to date (Sync) and searches it (Search). A segment
// found damaged while searching is reported in the warnings and the
// index rebuilt, then searched again. Errors: a query with nothing to look
// for (wrapping search.ErrEmptyQuery), the file system's.
func (ix *Index) Find(query string, f Filter, limit int) ([]Hit, []i18n.Text, error) {
	q, err := search.ParseQuery(query)
	if err != nil {
		return nil, nil, err
	}
	warnings, err := ix.Sync()
	if err != nil {
		return nil, warnings, err
	}
	hits, err := ix.Search(q, f, limit)
	if !untrusted(err) {
		return hits, warnings, err
	}
	w, err := ix.forget(err)
	warnings = append(warnings, w)
	if err != nil {
		return nil, warnings, err
	}
	more, err := ix.Sync()
	warnings = append(warnings, more...)
	if err != nil {
		return nil, warnings, err
	}
	hits, err = ix.Search(q, f, limit)
	return hits, warnings, err
}

// forget removes the index's files under its write lock after cause said
// one cannot be trusted, and returns the warning to show.
func (ix *Index) forget(cause error) (i18n.Text, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	unlock, err := ix.lock()
	if err != nil {
		return i18n.Text{}, err
	}
	defer unlock()
	return ix.reset(cause)
}
