package command

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// wideRows are a table of the settings' kind: a name, a long value, a
// source, with Portuguese accents, CJK and colours in it.
func wideRows() [][]string {
	return [][]string{
		{"CONFIGURAÇÃO", "VALOR", "ORIGEM"},
		{"CHATCLI_TELEGRAM_ALLOWED_USERS", "não definido (os arquivos ficam em texto puro)", "padrão"},
		{"HISTORY_FILE", "/tmp/TestConfigShowsTheModelTheNextTurnUses3539694863/001/history", "ambiente"},
		{"OPENAI_MODEL", "モデルの名前はとても長いですモデルの名前はとても長いです", "nesta sessão (/model; antes: /home/ana/.config/chatcli/config.toml:3)"},
		{"\x1b[1mCHATCLI_HOME\x1b[m", "\x1b[31mred words that go on and on well past any column\x1b[m", "default"},
	}
}

// TestFitTableKeepsEveryLineInTheWidth: at 40, 80 and 200 cells no line
// is wider than the terminal (display width: accents one cell, CJK two,
// escapes none), the free text wraps without losing a word, names are cut
// only with "…", and a table that fits is printed as it is.
func TestFitTableKeepsEveryLineInTheWidth(t *testing.T) {
	fits := []colFit{name, wrap, wrap}
	for _, width := range []int{40, 80, 200} {
		lines := fitTable(wideRows()[0], wideRows()[1:], fits, width)
		text := strings.Join(lines, "\n")
		for _, l := range lines {
			if n := ansi.StringWidth(l); n > width {
				t.Errorf("%d: a line of %d cells: %q", width, n, l)
			}
		}
		words := strings.Fields(ansi.Strip(text))
		for _, word := range []string{"definido", "texto", "puro)", "antes:", "sessão", "well", "column"} {
			if !slices.Contains(words, word) {
				t.Errorf("%d: %q lost:\n%s", width, word, text)
			}
		}
		if strings.Contains(text, "CHATCLI_TELEGRAM_ALLOWED_USERS") == (width == 40) {
			t.Errorf("%d: the longest name:\n%s", width, text)
		}
		if width == 40 && !strings.Contains(text, "CHATCLI_TELEGRA…  ") {
			t.Errorf("a cut name is not marked:\n%s", text)
		}
		if width == 200 && len(lines) != len(wideRows()) {
			t.Errorf("a table that fits was changed:\n%s", text)
		}
		for _, l := range lines { // colours end on the line that has them
			if strings.Count(l, "\x1b[31m") != strings.Count(l, "\x1b[m")-strings.Count(l, "\x1b[1m") {
				t.Errorf("%d: colours not closed on their line: %q", width, l)
			}
		}
	}
	got := fitTable(wideRows()[0], wideRows()[1:], fits, 80)
	if got[0] != "CONFIGURAÇÃO                    VALOR                    ORIGEM" {
		t.Errorf("headings %q", got[0])
	}
}

// TestFitTableClipsTitlesToOneLine: clip and clipLeft keep a row on one
// line, cutting the start or the end with "…".
func TestFitTableClipsTitlesToOneLine(t *testing.T) {
	rows := [][]string{{"s1", strings.Repeat("título ", 10), "/home/ana/projetos/um-projeto-com-nome-longo/app"}}
	lines := fitTable([]string{"NAME", "TITLE", "FOLDER"}, rows, []colFit{name, clip, clipLeft}, 60)
	if len(lines) != 2 || ansi.StringWidth(lines[1]) != 60 || !strings.HasPrefix(lines[1], "s1    título título") ||
		!strings.Contains(lines[1], "…  …") || !strings.HasSuffix(lines[1], "nome-longo/app") {
		t.Fatalf("%q", lines)
	}
}

// TestWriteRowsOffATerminalIsTabwriters: width 0 (not a terminal) prints
// what text/tabwriter always printed, nothing cut.
func TestWriteRowsOffATerminalIsTabwriters(t *testing.T) {
	var b bytes.Buffer
	writeRows(&b, []string{"A", "B", "C"}, [][]string{{"name", strings.Repeat("x", 120), "end"}}, []colFit{name, wrap, wrap}, 0)
	want := "A     B" + strings.Repeat(" ", 121) + "C\nname  " + strings.Repeat("x", 120) + "  end\n"
	if b.String() != want {
		t.Fatalf("%q", b.String())
	}
}

// TestAWrappedURLBreaksAtItsSeparators: a value too wide for its column
// wraps after a "/" or a ".", where a URL or a path reads on, not at
// whatever character the width reaches.
func TestAWrappedURLBreaksAtItsSeparators(t *testing.T) {
	got := narrow("https://api.moonshot.ai/v1", wrap, 13)
	want := []string{"https://api.", "moonshot.ai/", "v1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("wrapped %q, want %q", got, want)
	}
}
