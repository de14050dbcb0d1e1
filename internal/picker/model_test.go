package picker

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatcli/chatcli/internal/i18n"
)

var now = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func testRows() []Row {
	return []Row{
		{Name: "parser-work", Title: "rewrite the parser", Folder: "/w/a", Messages: 12, UpdatedAt: now.Add(-3 * time.Hour)},
		{Name: "autosave-20261130-090000", Title: "quick question", Folder: "/w/a", Messages: 4, UpdatedAt: now.Add(-26 * time.Hour)},
		{Name: "日本語", Title: "テスト 🎉 emoji title that is long enough to be clipped in the column", Folder: "/w/b", Messages: 2, UpdatedAt: now.Add(-time.Minute)},
	}
}

// fake is a Source whose calls are recorded.
type fake struct {
	renamed, deleted []string
	searched         []string
}

func (f *fake) source() Source {
	return Source{Folder: "/w/a", Now: func() time.Time { return now },
		Preview: func(name string) (string, error) { return "> last prompt of " + name + "\nits reply", nil },
		Search: func(q string) ([]Hit, error) {
			f.searched = append(f.searched, q)
			return []Hit{{Name: "日本語", Snippet: "the zebra migration"}, {Name: "parser-work", Snippet: "zebra too"}}, nil
		},
		Rename: func(o, n string) error {
			if n == "taken" {
				return errors.New("session exists: \"taken\"")
			}
			f.renamed = append(f.renamed, o+"->"+n)
			return nil
		},
		Delete: func(n string) error { f.deleted = append(f.deleted, n); return nil },
	}
}

// drive feeds msgs to m, running each command it returns (a tick's
// message is delivered at once) until none is left.
func drive(t *testing.T, m model, msgs ...tea.Msg) model {
	t.Helper()
	for len(msgs) > 0 {
		msg := msgs[0]
		msgs = msgs[1:]
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				if c != nil {
					msgs = append(msgs, c())
				}
			}
			continue
		}
		if msg == nil {
			continue
		}
		tm, cmd := m.Update(msg)
		m = tm.(model)
		if cmd != nil {
			msgs = append(msgs, cmd())
		}
	}
	return m
}

func keys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

var (
	enter = tea.KeyPressMsg{Code: tea.KeyEnter}
	tab   = tea.KeyPressMsg{Code: tea.KeyTab}
	down  = tea.KeyPressMsg{Code: tea.KeyDown}
	ctrlR = tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	ctrlD = tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}
	ctrlU = tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
)

func screen(m model) string { return ansi.Strip(m.View().Content) }

func TestFirstFrameBeforeAnyRowAndRowsStreamIn(t *testing.T) {
	f := &fake{}
	m := newModel(f.source())
	if s := screen(m); !strings.Contains(s, "loading…") || !strings.Contains(s, "0 shown of 0") {
		t.Fatalf("first frame:\n%s", s)
	}
	m = drive(t, m, rowsMsg{rows: testRows()[:1]})
	if s := screen(m); !strings.Contains(s, "parser-work") || !strings.Contains(s, "3 hours ago") || !strings.Contains(s, "loading…") {
		t.Fatalf("after one batch:\n%s", s)
	}
	m = drive(t, m, rowsMsg{rows: testRows()[1:]}, rowsMsg{done: true})
	s := screen(m)
	if strings.Contains(s, "loading…") || !strings.Contains(s, "2 shown of 3") || strings.Contains(s, "日本語") {
		t.Fatalf("this folder's rows only, loading done:\n%s", s)
	}
	if !strings.Contains(s, "1 day ago") || !strings.Contains(s, "> last prompt of parser-work") {
		t.Fatalf("ages and the preview of the highlighted row:\n%s", s)
	}
	m = drive(t, m, tab)
	if s := screen(m); !strings.Contains(s, "3 shown of 3") || !strings.Contains(s, "日本語") || !strings.Contains(s, "/w/b") {
		t.Fatalf("Tab shows every folder:\n%s", s)
	}
}

func TestFitsEightyByTwentyFour(t *testing.T) {
	f := &fake{}
	m := drive(t, newModel(f.source()), tea.WindowSizeMsg{Width: 80, Height: 24}, rowsMsg{rows: testRows(), done: true}, tab)
	lines := strings.Split(strings.TrimSuffix(screen(m), "\n"), "\n")
	if len(lines) != 24 {
		t.Fatalf("%d lines, want 24:\n%s", len(lines), screen(m))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Fatalf("line %d is %d cells wide: %q", i+1, w, l)
		}
	}
	// Columns align by display width: the CJK row's folder starts where the others' do.
	var cols []int
	for _, l := range lines {
		l = ansi.Strip(l)
		if i := strings.Index(l, "/w/"); i >= 0 {
			cols = append(cols, ansi.StringWidth(l[:i]))
		}
	}
	if len(cols) != 3 || cols[0] != cols[1] || cols[1] != cols[2] {
		t.Fatalf("folder columns at %v", cols)
	}
}

func TestFilterAndContentSearchInOneView(t *testing.T) {
	f := &fake{}
	m := drive(t, newModel(f.source()), rowsMsg{rows: testRows(), done: true}, tab)
	m = drive(t, m, keys("pars")...)
	s := screen(m)
	if !strings.Contains(s, "parser-work") || strings.Contains(s, "quick question") {
		t.Fatalf("filter by name and title:\n%s", s)
	}
	m = drive(t, m, ctrlU)
	m = drive(t, m, keys("zebra")...)
	s = screen(m)
	if len(f.searched) == 0 || f.searched[len(f.searched)-1] != "zebra" {
		t.Fatalf("content search not asked: %v", f.searched)
	}
	if !strings.Contains(s, "日本語") || !strings.Contains(s, "“the zebra m") || !strings.Contains(s, "zebra too") {
		t.Fatalf("content hits with their snippets:\n%s", s)
	}
	m = drive(t, m, enter)
	if !m.done || m.chosen != "日本語" {
		t.Fatalf("Enter on the first hit chose %q", m.chosen)
	}
}

func TestRenameAndTrashFromThePicker(t *testing.T) {
	f := &fake{}
	m := drive(t, newModel(f.source()), rowsMsg{rows: testRows(), done: true})
	m = drive(t, m, ctrlR)
	if s := screen(m); !strings.Contains(s, "new name: parser-work") {
		t.Fatalf("Ctrl+R prompt:\n%s", s)
	}
	m = drive(t, m, ctrlU)
	m = drive(t, m, append(keys("taken"), enter)...)
	if s := screen(m); !strings.Contains(s, `session exists: "taken"`) || !strings.Contains(s, "parser-work") {
		t.Fatalf("a refused rename says why and keeps the row:\n%s", s)
	}
	m = drive(t, m, ctrlR, ctrlU)
	m = drive(t, m, append(keys("parser-v2"), enter)...)
	if s := screen(m); len(f.renamed) != 1 || f.renamed[0] != "parser-work->parser-v2" || !strings.Contains(s, "parser-v2") {
		t.Fatalf("renamed %v:\n%s", f.renamed, s)
	}
	m = drive(t, m, down, ctrlD)
	if s := screen(m); !strings.Contains(s, `Move "autosave-20261130-090000" to the trash? [y/N]`) {
		t.Fatalf("Ctrl+D asks:\n%s", s)
	}
	m = drive(t, m, keys("n")...)
	if len(f.deleted) != 0 {
		t.Fatalf("n deleted %v", f.deleted)
	}
	m = drive(t, m, ctrlD)
	m = drive(t, m, keys("y")...)
	if s := screen(m); len(f.deleted) != 1 || strings.Contains(s, "quick question") || !strings.Contains(s, "moved to the trash") {
		t.Fatalf("deleted %v:\n%s", f.deleted, s)
	}
}

func TestAnEmptyStoreSaysSo(t *testing.T) {
	f := &fake{}
	m := drive(t, newModel(f.source()), rowsMsg{done: true})
	if s := screen(m); !strings.Contains(s, "No saved sessions yet") {
		t.Fatalf("empty store:\n%s", s)
	}
	src := f.source()
	src.Search = nil // no content hit either
	m = drive(t, newModel(src), rowsMsg{rows: testRows(), done: true})
	m = drive(t, m, keys("nothing-like-it")...)
	if s := screen(m); !strings.Contains(s, "No session matches.") {
		t.Fatalf("no match:\n%s", s)
	}
}

func TestEscChoosesNothing(t *testing.T) {
	f := &fake{}
	m := drive(t, newModel(f.source()), rowsMsg{rows: testRows(), done: true}, tea.KeyPressMsg{Code: tea.KeyEscape})
	if !m.done || m.chosen != "" {
		t.Fatalf("Esc: done %v chosen %q", m.done, m.chosen)
	}
}

func TestThePickerSpeaksPortuguese(t *testing.T) {
	f := &fake{}
	src := f.source()
	src.Lang = i18n.New(i18n.Portuguese)
	m := drive(t, newModel(src), rowsMsg{rows: testRows(), done: true})
	s := screen(m)
	for _, want := range []string{"Retomar uma sessão · esta pasta · 2 mostradas de 3 · Tab: todas as pastas",
		"NOME", "ATUALIZADA", "há 3 horas", "Enter retoma · Ctrl+R renomeia"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q missing from:\n%s", want, s)
		}
	}
	m = drive(t, m, down, ctrlD)
	if s := screen(m); !strings.Contains(s, "Mover 'autosave-20261130-090000' para a lixeira? [s/N]") {
		t.Errorf("Ctrl+D asks:\n%s", s)
	}
	m = drive(t, m, keys("n")...)
	if s := screen(m); !strings.Contains(s, "não movida para a lixeira") {
		t.Errorf("n:\n%s", s)
	}
	m = drive(t, newModel(src), rowsMsg{done: true})
	if s := screen(m); !strings.Contains(s, "Nenhuma sessão salva ainda.") {
		t.Errorf("empty store:\n%s", s)
	}
}

// TestPortugueseTrashTakesSim: the Portuguese question offers [s/N] and
// "s" agrees, as "y" does.
func TestPortugueseTrashTakesSim(t *testing.T) {
	f := &fake{}
	src := f.source()
	src.Lang = i18n.New(i18n.Portuguese)
	m := drive(t, newModel(src), rowsMsg{rows: testRows(), done: true})
	m = drive(t, m, ctrlD)
	if s := screen(m); !strings.Contains(s, "para a lixeira? [s/N]") {
		t.Fatalf("Ctrl+D asks:\n%s", s)
	}
	m = drive(t, m, keys("s")...)
	if len(f.deleted) != 1 {
		t.Fatalf("s deleted %v:\n%s", f.deleted, screen(m))
	}
}
