package picker

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// The messages the model receives besides keys.
type (
	rowsMsg struct {
		rows []Row
		done bool
		err  error
	}
	previewMsg struct {
		name, text string
		err        error
	}
	searchDue struct{ query string }
	searchMsg struct {
		query string
		hits  []Hit
		err   error
	}
	changedMsg struct {
		old, new string // new is "" for a move to the trash
		err      error
	}
)

// The modes of the input line.
const (
	modeFilter  = iota // typing filters the list
	modeRename         // typing the highlighted session's new name
	modeConfirm        // y/n: move it to the trash
)

// model is the picker's bubbletea model.
type model struct {
	src     Source
	list    list
	loading bool
	scope   string // the folder shown; "" for all
	filter  textinput.Model
	name    textinput.Model // the new name in modeRename
	mode    int
	cursor  int // in the visible items
	top     int // first visible item drawn
	status  string
	preview map[string]string // by session name
	asked   map[string]bool   // previews requested
	width   int
	height  int

	chosen string
	done   bool
}

func newModel(src Source) model {
	f := textinput.New()
	f.Prompt = "> "
	f.Placeholder = src.Lang.Sprintf("type to filter by name and title; 3+ characters also search the content")
	f.Focus()
	n := textinput.New()
	n.Prompt = src.Lang.Sprintf("new name: ")
	f.SetWidth(77)
	n.SetWidth(68)
	for _, in := range []*textinput.Model{&f, &n} {
		st := in.Styles()
		st.Cursor.Blink = false
		in.SetStyles(st)
	}
	scope := src.Folder
	if src.AllFirst {
		scope = ""
	}
	return model{src: src, loading: true, scope: scope, filter: f, name: n,
		preview: map[string]string{}, asked: map[string]bool{}, width: 80, height: 24}
}

func (m model) Init() tea.Cmd { return nil }

func (m model) items() []item { return m.list.visible(m.filter.Value(), m.scope) }

// current is the highlighted item; ok is false when the list is empty.
func (m model) current() (item, bool) {
	it := m.items()
	if m.cursor < 0 || m.cursor >= len(it) {
		return item{}, false
	}
	return it[m.cursor], true
}

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.filter.SetWidth(max(1, m.width-3))
		m.name.SetWidth(max(1, m.width-12))
		m.clampCursor()
		return m, nil
	case rowsMsg:
		m.list.add(msg.rows)
		if msg.err != nil {
			m.status = m.src.Lang.Sprintf("listing stopped: %s", msg.err.Error())
		}
		if msg.done {
			m.loading = false
		}
		return m, m.wantPreview()
	case previewMsg:
		m.preview[msg.name] = msg.text
		if msg.err != nil {
			m.preview[msg.name] = m.src.Lang.Sprintf("(no preview: %s)", msg.err.Error())
		}
		return m, nil
	case searchDue:
		if msg.query != m.filter.Value() || m.src.Search == nil {
			return m, nil
		}
		search := m.src.Search
		return m, func() tea.Msg {
			hits, err := search(msg.query)
			return searchMsg{query: msg.query, hits: hits, err: err}
		}
	case searchMsg:
		if msg.err != nil {
			m.status = m.src.Lang.Sprintf("content search failed: %s", msg.err.Error())
			return m, nil
		}
		m.list.hits, m.list.hitsFor = msg.hits, strings.ToLower(strings.TrimSpace(msg.query))
		return m, m.wantPreview()
	case changedMsg:
		return m.changed(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

// changed applies a rename or a move to the trash that finished.
func (m model) changed(msg changedMsg) (tea.Model, tea.Cmd) {
	switch {
	case msg.err != nil:
		m.status = msg.err.Error()
	case msg.new == "":
		m.list.remove(msg.old)
		m.status = m.src.Lang.Sprintf("%q moved to the trash (chatcli session restore %s brings it back)", msg.old, msg.old)
	default:
		m.list.rename(msg.old, msg.new)
		m.preview[msg.new] = m.preview[msg.old]
		m.status = m.src.Lang.Sprintf("renamed %q to %q", msg.old, msg.new)
	}
	m.clampCursor()
	return m, m.wantPreview()
}

func (m model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := msg.String()
	if k == "ctrl+c" {
		m.done = true
		return m, tea.Quit
	}
	switch m.mode {
	case modeRename:
		return m.renameKey(msg)
	case modeConfirm:
		return m.confirmKey(k)
	}
	switch k {
	case "esc":
		m.done = true
		return m, tea.Quit
	case "enter":
		if it, ok := m.current(); ok {
			m.chosen, m.done = it.Name, true
			return m, tea.Quit
		}
		return m, nil
	case "up", "ctrl+p":
		m.cursor--
	case "down", "ctrl+n":
		m.cursor++
	case "pgup":
		m.cursor -= m.listHeight()
	case "pgdown":
		m.cursor += m.listHeight()
	case "tab":
		if m.src.Folder != "" {
			if m.scope == "" {
				m.scope = m.src.Folder
			} else {
				m.scope = ""
			}
			m.cursor, m.top = 0, 0
		}
	case "ctrl+r":
		if it, ok := m.current(); ok && m.src.Rename != nil {
			m.mode, m.status = modeRename, ""
			m.name.SetValue(it.Name)
			m.name.CursorEnd()
			m.filter.Blur()
			return m, m.name.Focus()
		}
	case "ctrl+d":
		if _, ok := m.current(); ok && m.src.Delete != nil {
			m.mode, m.status = modeConfirm, ""
		}
	default:
		before := m.filter.Value()
		var cmd tea.Cmd
		m.filter, cmd = m.filter.Update(msg)
		if q := m.filter.Value(); q != before {
			m.cursor, m.top = 0, 0
			if searchable(q) && m.src.Search != nil {
				cmd = tea.Batch(cmd, tea.Tick(searchPause, func(time.Time) tea.Msg { return searchDue{query: q} }))
			}
		}
		return m, tea.Batch(cmd, m.wantPreview())
	}
	m.clampCursor()
	return m, m.wantPreview()
}

func (m model) renameKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		m.mode, m.status = modeFilter, m.src.Lang.Sprintf("not renamed")
		m.name.Blur()
		return m, m.filter.Focus()
	case "enter":
		it, _ := m.current()
		old, new := it.Name, strings.TrimSpace(m.name.Value())
		m.mode = modeFilter
		m.name.Blur()
		rename := m.src.Rename
		return m, tea.Batch(m.filter.Focus(), func() tea.Msg { return changedMsg{old: old, new: new, err: rename(old, new)} })
	}
	var cmd tea.Cmd
	m.name, cmd = m.name.Update(msg)
	return m, cmd
}

func (m model) confirmKey(k string) (tea.Model, tea.Cmd) {
	m.mode = modeFilter
	it, _ := m.current()
	if !m.src.Lang.Agrees(k) {
		m.status = m.src.Lang.Sprintf("not moved to the trash")
		return m, nil
	}
	del := m.src.Delete
	return m, func() tea.Msg { return changedMsg{old: it.Name, err: del(it.Name)} }
}

// clampCursor keeps the cursor on an item and in the drawn window.
func (m *model) clampCursor() {
	n := len(m.items())
	m.cursor = max(0, min(m.cursor, n-1))
	h := m.listHeight()
	if m.cursor < m.top {
		m.top = m.cursor
	}
	if m.cursor >= m.top+h {
		m.top = m.cursor - h + 1
	}
}

// wantPreview asks for the highlighted row's preview once.
func (m model) wantPreview() tea.Cmd {
	it, ok := m.current()
	if !ok || m.asked[it.Name] || m.src.Preview == nil {
		return nil
	}
	m.asked[it.Name] = true // a map: shared with the model's copies
	name, preview := it.Name, m.src.Preview
	return func() tea.Msg {
		text, err := preview(name)
		return previewMsg{name: name, text: text, err: err}
	}
}
