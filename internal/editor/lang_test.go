package editor

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestTheLabelsSpeakPortuguese: a folded paste and the history search say
// what they are in the editor's language; the paste is still sent whole.
func TestTheLabelsSpeakPortuguese(t *testing.T) {
	paste := strings.TrimSuffix(strings.Repeat("x := 1\n", 42), "\n")
	m, _ := newTestModel([]string{"/session save notes"}, nil)
	m.lang = i18n.New(i18n.Portuguese)
	m, _ = press(t, m, tea.PasteMsg{Content: paste})
	if got := m.input.Value(); got != "[42 linhas coladas]" {
		t.Fatalf("input shows %q", got)
	}
	m, _ = press(t, m, keyEnter)
	if m.value != paste {
		t.Fatalf("sent %d bytes, want the %d of the paste", len(m.value), len(paste))
	}
	m, _ = newTestModel([]string{"/session save notes"}, nil)
	m.lang = i18n.New(i18n.Portuguese)
	m, _ = press(t, m, keyCtrlR)
	m, _ = press(t, m, typed("save")...)
	if view := m.View().Content; !strings.Contains(view, "(busca no histórico)`save': /session save notes") {
		t.Fatalf("view %q", view)
	}
	m, _ = press(t, m, typed("zzz")...)
	if view := m.View().Content; !strings.Contains(view, "(busca no histórico, nada encontrado)`savezzz'") {
		t.Fatalf("no match: %q", view)
	}
}
