package editor

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

var (
	keyAltEnter = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	keyCtrlJ    = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
	keyCtrlR    = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
)

func TestAltEnterAndCtrlJInsertANewline(t *testing.T) {
	m, clk := newTestModel(nil, nil)
	clk.advance(time.Second) // past the window where a line feed is a typed-ahead Enter
	m, _ = press(t, m, typed("def f():")...)
	m, _ = press(t, m, keyAltEnter)
	m, _ = press(t, m, typed("    return 1")...)
	m, _ = press(t, m, keyCtrlJ)
	m, cmd := press(t, m, append(typed("print(f())"), keyEnter)...)
	if want := "def f():\n    return 1\nprint(f())"; !m.done || m.value != want || !isQuit(cmd) {
		t.Fatalf("value %q, want %q", m.value, want)
	}
	view := m.View().Content
	if !strings.Contains(view, ">     return 1\n") && !strings.Contains(view, "      return 1\n") {
		t.Fatalf("the finished input is not shown line by line under the prompt:\n%s", view)
	}
}

func TestALineFeedRightAtTheStartIsATypedAheadEnter(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, append(typed("typed ahead"), keyCtrlJ)...)
	if !m.done || m.value != "typed ahead" {
		t.Fatalf("done=%v value=%q", m.done, m.value)
	}
}

func TestPasteIsKeptByteForByte(t *testing.T) {
	for name, paste := range map[string]string{
		"indented with blank lines": "def f():\n    x = 1\n\n    return x\n\n\nprint(f())\n",
		"tabs":                      "func main() {\n\tfmt.Println(\"oi\")\n}",
		"long":                      strings.Repeat("line\twith a tab\n", 42),
		"control bytes":             "a\x1b[31mred\x07",
	} {
		t.Run(name, func(t *testing.T) {
			m, _ := newTestModel(nil, nil)
			m, _ = press(t, m, typed("look: ")...)
			m, _ = press(t, m, tea.PasteMsg{Content: paste})
			m, _ = press(t, m, typed(" thanks")...)
			m, _ = press(t, m, keyEnter)
			if want := "look: " + paste + " thanks"; m.value != want {
				t.Fatalf("sent %q, want %q", m.value, want)
			}
		})
	}
}

func TestPasteLineBreaksBecomeLineFeeds(t *testing.T) {
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, tea.PasteMsg{Content: "one\rtwo\r\nthree"}, keyEnter)
	if m.value != "one\ntwo\nthree" {
		t.Fatalf("sent %q", m.value)
	}
}

func TestALongPasteShowsAsItsLineCount(t *testing.T) {
	paste := strings.TrimSuffix(strings.Repeat("x := 1\n", 42), "\n")
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, tea.PasteMsg{Content: paste})
	if got := m.input.Value(); got != "[pasted 42 lines]" {
		t.Fatalf("input shows %q", got)
	}
	if !strings.Contains(m.View().Content, "[pasted 42 lines]") {
		t.Fatalf("view:\n%s", m.View().Content)
	}
	// A second one is told apart; Backspace removes a label whole.
	m, _ = press(t, m, tea.PasteMsg{Content: paste}, keyBackspace)
	if got := m.input.Value(); got != "[pasted 42 lines]" {
		t.Fatalf("after Backspace: %q", got)
	}
	m, _ = press(t, m, keyEnter)
	if m.value != paste {
		t.Fatalf("sent %d bytes, want the %d of the paste", len(m.value), len(paste))
	}
}

// TestAPasteEndingInALineFeedCountsItsLines: lines copied whole end in a
// line feed, which ends the last line rather than starting one more; the
// paste is still sent byte for byte.
func TestAPasteEndingInALineFeedCountsItsLines(t *testing.T) {
	paste := "def f(x):\n\tif x:\n\n\t\treturn 1\n\treturn 2\n"
	m, _ := newTestModel(nil, nil)
	m, _ = press(t, m, tea.PasteMsg{Content: paste})
	if got := m.input.Value(); got != "[pasted 5 lines]" {
		t.Fatalf("input shows %q", got)
	}
	m, _ = press(t, m, keyEnter)
	if m.value != paste {
		t.Fatalf("sent %q, want %q", m.value, paste)
	}
}

func TestHistoryRecallsMultiLineEntries(t *testing.T) {
	entry := "first line\nsecond line"
	m, _ := newTestModel([]string{"older", entry}, nil)
	m, _ = press(t, m, keyUp)
	if got := m.input.Value(); got != entry {
		t.Fatalf("recalled %q", got)
	}
	// The cursor is on the last line: Up moves within the entry first,
	// then to the older entry.
	m, _ = press(t, m, keyUp)
	if got := m.input.Value(); got != entry || m.input.Line() != 0 {
		t.Fatalf("Up in a two-line entry: %q line %d", got, m.input.Line())
	}
	m, _ = press(t, m, keyUp)
	if got := m.input.Value(); got != "older" {
		t.Fatalf("then %q", got)
	}
	m, _ = press(t, m, keyDown, keyEnter)
	if m.value != entry {
		t.Fatalf("sent %q", m.value)
	}
}

func TestCtrlRSearchesTheHistory(t *testing.T) {
	hist := []string{"/session save notes", "explain the parser", "/session load notes", "fix the tests"}
	m, _ := newTestModel(hist, nil)
	m, _ = press(t, m, keyCtrlR)
	m, _ = press(t, m, typed("session")...)
	if view := m.View().Content; !strings.Contains(view, "(reverse-i-search)`session': /session load notes") {
		t.Fatalf("view %q", view)
	}
	m, _ = press(t, m, keyCtrlR) // the next older match
	if view := m.View().Content; !strings.Contains(view, ": /session save notes") {
		t.Fatalf("after Ctrl+R: %q", view)
	}
	m, _ = press(t, m, typed("zzz")...)
	if view := m.View().Content; !strings.Contains(view, "failing reverse-i-search") {
		t.Fatalf("no match: %q", view)
	}
	m, _ = press(t, m, keyBackspace, keyBackspace, keyBackspace, keyEnter)
	if !m.done || m.value != "/session load notes" {
		t.Fatalf("Enter sent %q (done %v)", m.value, m.done)
	}

	// Esc gives up and leaves the input as it was; another key takes the
	// match into the input for editing.
	m, _ = newTestModel(hist, nil)
	m, _ = press(t, m, typed("draft")...)
	m, _ = press(t, m, keyCtrlR)
	m, _ = press(t, m, typed("parser")...)
	m, _ = press(t, m, keyEsc)
	if m.search != nil || m.input.Value() != "draft" {
		t.Fatalf("after Esc: %q", m.input.Value())
	}
	m, _ = press(t, m, keyCtrlR)
	m, _ = press(t, m, typed("parser")...)
	m, _ = press(t, m, keyCtrlE)
	m, _ = press(t, m, typed("!")...)
	if got := m.input.Value(); got != "explain the parser!" {
		t.Fatalf("edited match %q", got)
	}
}
