package editor

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// fakeClock is a settable clock for the Esc Esc timing.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTestModel(history []string, complete func(string) []string) (model, *fakeClock) {
	clk := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	return newModel("> ", history, complete, clk.now), clk
}

// Synthesized key presses, as the terminal reader would produce them.
var (
	keyEnter     = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyEsc       = tea.KeyPressMsg{Code: tea.KeyEscape}
	keyAltEsc    = tea.KeyPressMsg{Code: tea.KeyEscape, Mod: tea.ModAlt}
	keyTab       = tea.KeyPressMsg{Code: tea.KeyTab}
	keyShiftTab  = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	keyUp        = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown      = tea.KeyPressMsg{Code: tea.KeyDown}
	keyLeft      = tea.KeyPressMsg{Code: tea.KeyLeft}
	keyRight     = tea.KeyPressMsg{Code: tea.KeyRight}
	keyBackspace = tea.KeyPressMsg{Code: tea.KeyBackspace}
	keyDelete    = tea.KeyPressMsg{Code: tea.KeyDelete}
	keyCtrlA     = tea.KeyPressMsg{Code: 'a', Mod: tea.ModCtrl}
	keyCtrlE     = tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}
	keyCtrlC     = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	keyCtrlD     = tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
)

// press feeds msgs to m through Update and returns the resulting model and
// the command of the last one.
func press(t *testing.T, m model, msgs ...tea.Msg) (model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, msg := range msgs {
		var tm tea.Model
		tm, cmd = m.Update(msg)
		m = tm.(model)
	}
	return m, cmd
}

// typed returns one key press per grapheme cluster of s.
func typed(s string) []tea.Msg {
	var msgs []tea.Msg
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		r := g.Runes()
		code := r[0]
		if len(r) > 1 {
			code = tea.KeyExtended
		}
		msgs = append(msgs, tea.KeyPressMsg{Code: code, Text: g.Str()})
	}
	return msgs
}

// isQuit reports whether cmd ends the program: tea.Quit, or the quit a
// finished model asks for in case endMark never comes (run at once here).
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	defer markLate.Store(markLate.Load())
	markLate.Store(0)
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// TestAFinishedLineQuitsAtTheEndMark: once the input is finished, keys
// still arriving are kept for the next line, and the program exits when
// endMark arrives, not before.
func TestAFinishedLineQuitsAtTheEndMark(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	ended := 0
	m.onEnd = func() { ended++ }
	m, _ = press(t, m, append(typed("one"), keyEnter)...)
	tm, cmd := m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	m = tm.(model)
	if cmd != nil || len(m.pending) != 1 || ended != 1 {
		t.Fatalf("a key after the end: cmd %v, pending %v, ended %d", cmd, m.pending, ended)
	}
	tm, cmd = m.Update(uv.UnknownApcEvent(endMark))
	if _, ok := cmd().(tea.QuitMsg); !ok || len(tm.(model).pending) != 1 {
		t.Fatalf("the end mark: cmd %v", cmd)
	}
}

func TestEnterSubmitsLine(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, cmd := press(t, m, append(typed("olá mundo"), keyEnter)...)
	if !m.done || m.value != "olá mundo" || m.err != nil || !isQuit(cmd) {
		t.Fatalf("done=%v value=%q err=%v quit=%v", m.done, m.value, m.err, isQuit(cmd))
	}
}

func TestHistoryNavigation(t *testing.T) {
	m, _ := newTestModel([]string{"first", "second", "third"}, nil)
	m, _ = press(t, m, typed("draft")...)
	steps := []struct {
		key  tea.Msg
		want string
	}{
		{keyUp, "third"}, {keyUp, "second"}, {keyUp, "first"},
		{keyUp, "first"}, // stays at the oldest
		{keyDown, "second"}, {keyDown, "third"},
		{keyDown, "draft"}, // back to what was being typed
		{keyDown, "draft"},
	}
	for i, s := range steps {
		m, _ = press(t, m, s.key)
		if got := m.input.Value(); got != s.want {
			t.Fatalf("step %d: line %q, want %q", i, got, s.want)
		}
		if m.input.Column() != len([]rune(s.want)) {
			t.Fatalf("step %d: cursor at %d, want end", i, m.input.Column())
		}
	}
	m, _ = press(t, m, keyUp, keyEnter)
	if m.value != "third" {
		t.Fatalf("submitted %q, want recalled entry", m.value)
	}
}

func TestHistoryEmpty(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, keyUp, keyDown)
	if m.input.Value() != "" {
		t.Fatalf("line %q, want empty", m.input.Value())
	}
}

func TestTabSingleCandidateReplacesLine(t *testing.T) {
	var asked []string
	m, _ := newTestModel(nil, func(line string) []string {
		asked = append(asked, line)
		return []string{"/session save "}
	})
	m, _ = press(t, m, append(typed("/ses"), keyTab)...)
	if got := m.input.Value(); got != "/session save " {
		t.Fatalf("line %q", got)
	}
	if len(asked) != 1 || asked[0] != "/ses" {
		t.Fatalf("Complete called with %q", asked)
	}
	if len(m.cands) != 0 {
		t.Fatalf("candidates shown for a single match: %q", m.cands)
	}
}

func TestTabSeveralCandidatesCycle(t *testing.T) {
	cands := []string{"/session list", "/session load", "/session save"}
	m, _ := newTestModel(nil, func(string) []string { return cands })
	m, _ = press(t, m, append(typed("/s"), keyTab)...)
	if got := m.input.Value(); got != "/session " {
		t.Fatalf("first Tab: line %q, want the common prefix", got)
	}
	view := m.View().Content
	for _, c := range cands {
		if !strings.Contains(view, c) {
			t.Fatalf("view does not list %q:\n%s", c, view)
		}
	}
	for i, want := range []string{cands[0], cands[1], cands[2], cands[0]} {
		m, _ = press(t, m, keyTab)
		if got := m.input.Value(); got != want {
			t.Fatalf("Tab %d: line %q, want %q", i+2, got, want)
		}
	}
	m, _ = press(t, m, keyShiftTab)
	if got := m.input.Value(); got != cands[2] {
		t.Fatalf("Shift+Tab: line %q, want %q", got, cands[2])
	}
	// Typing ends the cycle and hides the list.
	m, _ = press(t, m, typed("x")...)
	if m.cands != nil || strings.Contains(m.View().Content, cands[0]) {
		t.Fatalf("list still shown after typing: %q", m.View().Content)
	}
}

func TestTabWithoutCommonPrefixSelectsFirst(t *testing.T) {
	m, _ := newTestModel(nil, func(string) []string { return []string{"alpha", "beta"} })
	m, _ = press(t, m, keyTab)
	if got := m.input.Value(); got != "alpha" {
		t.Fatalf("line %q, want first candidate", got)
	}
}

func TestTabNoCompleter(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, append(typed("abc"), keyTab)...)
	if got := m.input.Value(); got != "abc" {
		t.Fatalf("line %q", got)
	}
}

func TestDoubleEsc(t *testing.T) {
	m, clk := newTestModel(nil, nil)
	m, _ = press(t, m, keyEsc)
	if m.done {
		t.Fatal("one Esc ended the line")
	}
	clk.advance(400 * time.Millisecond)
	m, cmd := press(t, m, keyEsc)
	if !m.done || !errors.Is(m.err, ErrDoubleEsc) || !isQuit(cmd) {
		t.Fatalf("done=%v err=%v quit=%v", m.done, m.err, isQuit(cmd))
	}
}

func TestTwoEscTooFarApart(t *testing.T) {
	m, clk := newTestModel(nil, nil)
	m, _ = press(t, m, keyEsc)
	clk.advance(600 * time.Millisecond)
	m, _ = press(t, m, keyEsc)
	if m.done {
		t.Fatalf("Esc 600 ms apart ended the line: %v", m.err)
	}
	// The second press arms a new pair.
	clk.advance(100 * time.Millisecond)
	m, _ = press(t, m, keyEsc)
	if !errors.Is(m.err, ErrDoubleEsc) {
		t.Fatalf("err %v, want ErrDoubleEsc", m.err)
	}
}

func TestEscRequiresEmptyLine(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, append(typed("hi"), keyEsc, keyEsc, keyAltEsc)...)
	if m.done {
		t.Fatalf("Esc Esc on a non-empty line ended it: %v", m.err)
	}
	// Another key between the presses breaks the pair.
	m, _ = press(t, m, keyBackspace, keyBackspace, keyEsc, keyLeft, keyEsc)
	if m.done {
		t.Fatal("Esc, Left, Esc counted as a double Esc")
	}
}

func TestEscBytesReadTogether(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, keyAltEsc)
	if !errors.Is(m.err, ErrDoubleEsc) {
		t.Fatalf("err %v, want ErrDoubleEsc", m.err)
	}
}

func TestCtrlD(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, cmd := press(t, m, keyCtrlD)
	if !errors.Is(m.err, io.EOF) || !isQuit(cmd) {
		t.Fatalf("err=%v quit=%v", m.err, isQuit(cmd))
	}

	// On a non-empty line Ctrl+D deletes the character under the cursor.
	m, _ = newTestModel(nil, nil)
	m, _ = press(t, m, append(typed("abc"), keyCtrlA, keyCtrlD)...)
	if m.done || m.input.Value() != "bc" {
		t.Fatalf("done=%v line=%q", m.done, m.input.Value())
	}
}

func TestCtrlC(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, cmd := press(t, m, append(typed("half typed"), keyCtrlC)...)
	if !errors.Is(m.err, ErrInterrupt) || !isQuit(cmd) {
		t.Fatalf("err=%v quit=%v", m.err, isQuit(cmd))
	}
	if !strings.Contains(m.View().Content, "^C") {
		t.Fatalf("final view %q lacks ^C", m.View().Content)
	}
}

func TestMultiByteEditing(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, typed("documentação 🎉")...)
	if got := m.input.Value(); got != "documentação 🎉" {
		t.Fatalf("typed %q", got)
	}
	m, _ = press(t, m, keyBackspace, keyBackspace) // 🎉 and the space
	m, _ = press(t, m, keyLeft, keyLeft, keyBackspace)
	if got := m.input.Value(); got != "documentaão" {
		t.Fatalf("after deleting ç: %q", got)
	}
	m, _ = press(t, m, typed("ç")...)
	m, _ = press(t, m, keyCtrlA, keyDelete, keyCtrlE)
	m, _ = press(t, m, typed("!")...)
	if got := m.input.Value(); got != "ocumentação!" {
		t.Fatalf("after Ctrl+A, Delete, Ctrl+E: %q", got)
	}
}

func TestGraphemeClusters(t *testing.T) {
	// "e" + combining acute, and a thumbs-up with a skin tone: two runes
	// each, one character each.
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, typed("ae\u0301👍🏽z")...)
	m, _ = press(t, m, keyLeft, keyBackspace)
	if got := m.input.Value(); got != "ae\u0301z" {
		t.Fatalf("after deleting the emoji: %q", got)
	}
	m, _ = press(t, m, keyBackspace)
	if got := m.input.Value(); got != "az" {
		t.Fatalf("after deleting é: %q", got)
	}
	m, _ = press(t, m, keyCtrlA, keyRight, keyRight, keyBackspace)
	if got := m.input.Value(); got != "a" {
		t.Fatalf("after Right, Right, Backspace: %q", got)
	}
}

func TestWindowSizeSetsWidth(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, tea.WindowSizeMsg{Width: 40, Height: 10})
	if w := m.input.Width() + 2; w != 40 { // the prompt, then the text
		t.Fatalf("input width %d", m.input.Width())
	}
}

func TestFinishedLineShownInFull(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	long := strings.Repeat("palavra ", 12) // 96 cells, wider than the terminal
	m, _ = press(t, m, tea.WindowSizeMsg{Width: 40, Height: 10})
	m, _ = press(t, m, append(typed(long), keyEnter)...)
	view := m.View().Content
	if got := strings.ReplaceAll(view, "\n", ""); got != "> "+long {
		t.Fatalf("final view %q", view)
	}
	if !strings.HasSuffix(view, "\n") {
		t.Fatalf("final view %q does not end the line", view)
	}
}

func TestKeysAfterFinishArePending(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, append(typed("a"), keyEnter, keyUp, tea.PasteMsg{Content: "p"}, tea.WindowSizeMsg{Width: 9})...)
	if m.value != "a" || len(m.pending) != 2 {
		t.Fatalf("value %q pending %v", m.value, m.pending)
	}
	next, _ := newTestModel([]string{"a"}, nil)
	next = next.replay(m.pending)
	if got := next.input.Value(); got != "ap" {
		t.Fatalf("replayed line %q", got)
	}
}

// TestTabListShowsNotesBesideCandidates: the list shows each candidate's
// note (a session's title) beside it, and Tab still puts in the candidate
// alone.
func TestTabListShowsNotesBesideCandidates(t *testing.T) {
	cands := []string{"/resume demo", "/resume draft"}
	m, _ := newTestModel(nil, func(string) []string { return cands })
	m.note = func(c string) string { return map[string]string{"/resume demo": "Deploy freeze plan"}[c] }
	m, _ = press(t, m, append(typed("/resume d"), keyTab)...)
	view := m.View().Content
	if !strings.Contains(view, "/resume demo   — Deploy freeze plan") || strings.Contains(view, "/resume draft  —") {
		t.Fatalf("notes beside candidates:\n%s", view)
	}
	if got := m.input.Value(); got != "/resume demo" { // no common prefix to add: the first is selected
		t.Fatalf("line %q: the note must not be put in", got)
	}
}

// TestTabListAlignsTheNotes: the notes of the candidates listed start in
// one column, by display width (wide letters count two), as session
// list's titles do.
func TestTabListAlignsTheNotes(t *testing.T) {
	cands := []string{"/session load ta", "/session load scr1", "/session load 日本", "/session load autosave-20261202-004724"}
	m, _ := newTestModel(nil, func(string) []string { return cands })
	m.note = func(c string) string { return "title of " + strings.TrimPrefix(c, "/session load ") }
	m, _ = press(t, m, append(typed("/session load "), keyTab)...)
	col := -1
	for _, line := range strings.Split(m.View().Content, "\n") {
		before, _, ok := strings.Cut(line, "— title of")
		if !ok {
			continue
		}
		if w := ansi.StringWidth(before); col < 0 {
			col = w
		} else if w != col {
			t.Fatalf("the notes start in different columns (%d, %d):\n%s", col, w, m.View().Content)
		}
	}
	if col < 0 {
		t.Fatalf("no notes listed:\n%s", m.View().Content)
	}
}
