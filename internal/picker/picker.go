package picker

import (
	"context"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Row is one session as the picker lists it.
type Row struct {
	Name     string
	Title    string
	Folder   string // the folder it was last used in; "" when unknown
	Messages int
	// UpdatedAt is the stored updated_at: rows are newest first by it.
	UpdatedAt time.Time
}

// Hit is a content search result: the session and the excerpt that matched.
type Hit struct {
	Name    string
	Snippet string
}

// Source is what the picker reads and changes. Its functions run on
// goroutines of their own (never two of Preview, Search, Rename and Delete
// at once), so the screen stays live while they work.
type Source struct {
	// Rows sends every session, in batches, through send, then returns;
	// it should stop when ctx ends. Its error is shown on screen.
	Rows func(ctx context.Context, send func([]Row)) error
	// Preview returns the text of the last messages of session name.
	Preview func(name string) (string, error)
	// Search returns the sessions whose content matches query, best first.
	Search func(query string) ([]Hit, error)
	// Rename renames session old to new; Delete moves name to the trash.
	Rename func(old, new string) error
	Delete func(name string) error
	// Folder is this folder (Row.Folder's form); "" shows all sessions
	// and turns Tab off. AllFirst starts on all folders all the same (this
	// folder has no session).
	Folder   string
	AllFirst bool
	// Now is the clock of relative ages; nil means time.Now.
	Now func() time.Time
	// Lang is the language of the picker's texts; nil is English.
	Lang *i18n.Printer
}

// minSearchChars is the shortest query searched in the content.
const minSearchChars = 3

// searchPause is how long typing must stop before the content is searched.
const searchPause = 250 * time.Millisecond

// list holds the rows and computes what is shown of them.
type list struct {
	rows   []Row          // newest first
	byName map[string]int // index in rows
	hits   []Hit          // content hits of hitsFor
	// hitsFor is the query the hits answer.
	hitsFor string
}

// add merges a batch into the rows, keeping them newest first (ties by
// name); a name already listed is replaced.
func (l *list) add(batch []Row) {
	if l.byName == nil {
		l.byName = map[string]int{}
	}
	for _, r := range batch {
		if i, ok := l.byName[r.Name]; ok {
			l.rows[i] = r
			continue
		}
		l.rows = append(l.rows, r)
	}
	sort.SliceStable(l.rows, func(i, j int) bool {
		a, b := l.rows[i], l.rows[j]
		if !a.UpdatedAt.Equal(b.UpdatedAt) {
			return a.UpdatedAt.After(b.UpdatedAt)
		}
		return a.Name < b.Name
	})
	for i, r := range l.rows {
		l.byName[r.Name] = i
	}
}

// remove drops session name (moved to the trash).
func (l *list) remove(name string) {
	i, ok := l.byName[name]
	if !ok {
		return
	}
	l.rows = append(l.rows[:i], l.rows[i+1:]...)
	l.reindex()
}

// rename gives the row of old the name new.
func (l *list) rename(old, new string) {
	if i, ok := l.byName[old]; ok {
		l.rows[i].Name = new
		l.reindex()
	}
	for k := range l.hits {
		if l.hits[k].Name == old {
			l.hits[k].Name = new
		}
	}
}

func (l *list) reindex() {
	l.byName = make(map[string]int, len(l.rows))
	for i, r := range l.rows {
		l.byName[r.Name] = i
	}
}

// item is one line of the list: a row, and the snippet when it is listed
// for a content hit.
type item struct {
	Row
	snippet string
}

// visible is what the list shows for filter query in folder ("" for all):
// rows whose name or title holds query (any case), then the content hits
// for query not already listed.
func (l *list) visible(query, folder string) []item {
	q := strings.ToLower(strings.TrimSpace(query))
	var out []item
	listed := map[string]bool{}
	for _, r := range l.rows {
		if folder != "" && r.Folder != folder {
			continue
		}
		if q == "" || strings.Contains(strings.ToLower(r.Name), q) || strings.Contains(strings.ToLower(r.Title), q) {
			out = append(out, item{Row: r})
			listed[r.Name] = true
		}
	}
	if q == "" || l.hitsFor != q {
		return out
	}
	for _, h := range l.hits {
		i, ok := l.byName[h.Name]
		if !ok || listed[h.Name] || folder != "" && l.rows[i].Folder != folder {
			continue
		}
		listed[h.Name] = true
		out = append(out, item{Row: l.rows[i], snippet: h.Snippet})
	}
	return out
}

// searchable reports whether query is long enough for a content search.
func searchable(query string) bool {
	return utf8.RuneCountInString(strings.TrimSpace(query)) >= minSearchChars
}
