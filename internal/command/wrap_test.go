package command

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapTextBreaksAtSpacesWithinTheWidth: at 40 and 80 cells every line
// of prose is within the width (accents one cell, CJK two, escapes none),
// it is broken only at spaces (the words, read back, are the same), a
// continuation line is indented under a leading label, and a path wider
// than the width stays whole on a line of its own.
func TestWrapTextBreaksAtSpacesWithinTheWidth(t *testing.T) {
	path := "/home/ana/.local/share/chatcli/transcripts/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl"
	texts := []string{
		"chatcli dev · provedor openai · modelo gpt-4o-mini · /help para os comandos",
		"aviso: o contexto \"docs\" tem cerca de 90000 tokens, mais da metade da janela de 128000 tokens do modelo; --mode retrieval envia só os trechos relevantes",
		"nota: モデルの名前はとても長いです モデルの名前はとても長いです モデルの名前はとても長いです モデルの名前",
		"\x1b[1;33mwarning:\x1b[m input history not saved: open " + path + ": permission denied, and so on",
		"damaged: " + path + ": 3 damaged lines of 40\n  " + path + ":7: not JSON",
	}
	for _, width := range []int{40, 80} {
		for _, text := range texts {
			got := WrapText(text, width)
			if strings.Join(strings.Fields(ansi.Strip(got)), " ") != strings.Join(strings.Fields(ansi.Strip(text)), " ") {
				t.Errorf("%d: the words changed:\n%s\n%s", width, text, got)
			}
			for _, l := range strings.Split(got, "\n") {
				if n := ansi.StringWidth(l); n > width && strings.TrimSpace(ansi.Strip(l)) != path && !strings.HasPrefix(strings.TrimSpace(l), path) {
					t.Errorf("%d: a line of %d cells: %q", width, n, l)
				}
			}
		}
	}
	got := WrapText(texts[1], 40)
	want := "aviso: o contexto \"docs\" tem cerca de\n" +
		"       90000 tokens, mais da metade da\n" +
		"       janela de 128000 tokens do\n" +
		"       modelo; --mode retrieval envia só\n" +
		"       os trechos relevantes"
	if got != want {
		t.Errorf("a warning at 40:\n%s\nwant\n%s", got, want)
	}
	got = WrapText(texts[2], 40)
	if want := "nota: モデルの名前はとても長いです\n      モデルの名前はとても長いです\n      モデルの名前はとても長いです\n      モデルの名前"; got != want {
		t.Errorf("CJK at 40:\n%s\nwant\n%s", got, want)
	}
	got = WrapText(texts[4], 80)
	if want := "damaged:\n         " + path + ":\n         3 damaged lines of 40\n  " + path + ":7:\n  not JSON"; got != want {
		t.Errorf("paths at 80:\n%s\nwant\n%s", got, want)
	}
	if got := WrapText(texts[3], 80); !strings.HasPrefix(got, "\x1b[1;33mwarning:\x1b[m input history not saved: open\n         "+path+":\n") {
		t.Errorf("a coloured label:\n%q", got)
	}
}

// TestWrapTextLeavesWhatFits: a line within the width, and any text at
// width 0 (not a terminal), are returned as they are.
func TestWrapTextLeavesWhatFits(t *testing.T) {
	for _, text := range []string{"", "short line\n", "Now using provider openai, model gpt-4o, from the next turn; the conversation stays one history.\n"} {
		if got := WrapText(text, 0); got != text {
			t.Errorf("width 0 changed %q: %q", text, got)
		}
	}
	box := "╭── ✅ Session forked!\n│    De:   (conversa não salva)\n│    Agora trabalhando no fork. O original permanece intacto.\n╰──────────────────────────────────────────────\n"
	if got := WrapText(box, 40); got != box {
		t.Errorf("the fork box redrawn:\n%s", got)
	}
	if got := WrapText("  a b  c \n", 80); got != "  a b  c \n" {
		t.Errorf("%q", got)
	}
}

// TestWrapToWrapsWholeLines: the writer wraps each line once it is whole,
// however it was written, and passes everything through at width 0.
func TestWrapToWrapsWholeLines(t *testing.T) {
	var b bytes.Buffer
	w, flush := WrapTo(&b, 20)
	fmt.Fprint(w, "one two three ")
	fmt.Fprint(w, "four five six\nseven")
	flush()
	if want := "one two three four\nfive six\nseven"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
	b.Reset()
	w, flush = WrapTo(&b, 0)
	fmt.Fprint(w, "one two three four five six seven eight nine ten\n")
	flush()
	if w != &b {
		t.Errorf("width 0 is not the writer itself")
	}
}
