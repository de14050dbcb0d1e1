package editor

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// search is a Ctrl+R reverse incremental search of the history, as in
// readline: the newest entry holding the query is shown; Ctrl+R again
// finds the next older one.
type search struct {
	query string
	match int // index into history of the entry shown; -1 when none
}

// startSearch begins a search, or finds the next older match when one is
// running.
func (m *model) startSearch() {
	m.search = &search{match: -1}
	m.findFrom(len(m.history) - 1)
}

// findFrom shows the newest entry at or before index i that holds the
// query; when there is none the previous match stays and the search is
// marked failing.
func (m *model) findFrom(i int) {
	for ; i >= 0; i-- {
		if strings.Contains(m.history[i], m.search.query) {
			m.search.match = i
			return
		}
	}
	if m.search.query != "" && m.search.match >= 0 && !strings.Contains(m.history[m.search.match], m.search.query) {
		m.search.match = -1
	}
}

// searchKey handles a key while searching: text extends the query,
// Backspace shortens it, Ctrl+R finds an older match, Enter sends the
// match, Esc, Ctrl+G and Ctrl+C give up (the input is as it was), and any
// other key takes the match into the input and then acts there.
func (m model) searchKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch k := msg.String(); {
	case k == "ctrl+r":
		m.findFrom(m.search.match - 1)
	case k == "backspace" || k == "ctrl+h":
		if r := []rune(m.search.query); len(r) > 0 {
			m.search.query = string(r[:len(r)-clusterBefore(r, len(r))])
			m.findFrom(len(m.history) - 1)
		}
	case k == "esc" || k == "ctrl+g" || k == "ctrl+c":
		m.search = nil
	case k == "enter":
		if !m.endSearch(true) {
			return m, nil
		}
		return m.finish(m.expand(m.input.Value()), nil)
	case msg.Text != "" && msg.Mod&^tea.ModShift == 0:
		m.search.query += msg.Text
		start := m.search.match
		if start < 0 {
			start = len(m.history) - 1
		}
		m.findFrom(start)
	default:
		m.endSearch(true)
		return m.key(msg)
	}
	return m, nil
}

// endSearch ends the search; with take, the match (if any) replaces the
// input. It reports whether there was a match.
func (m *model) endSearch(take bool) bool {
	s := m.search
	m.search = nil
	if s.match < 0 {
		return false
	}
	if take {
		if m.histPos == len(m.history) {
			m.draft = m.expand(m.input.Value())
		}
		m.histPos = s.match
		m.setLine(m.history[s.match])
	}
	return true
}

// searchView is the search line: the query and the entry it found, on
// one line.
func (m model) searchView() string {
	head := m.lang.Sprintf("(reverse-i-search)`%s': ", m.search.query)
	if m.search.match < 0 {
		head = m.lang.Sprintf("(failing reverse-i-search)`%s': ", m.search.query)
	}
	found := ""
	if m.search.match >= 0 {
		found = strings.ReplaceAll(m.history[m.search.match], "\n", "⏎")
	}
	s := head + found
	if m.width > 1 {
		s = ansi.Truncate(s, m.width-1, "…")
	}
	return s
}
