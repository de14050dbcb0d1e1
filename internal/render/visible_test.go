package render

import (
	"strings"
	"testing"
)

func TestVisibleShowsEveryControlCharacter(t *testing.T) {
	for _, tc := range []struct{ in, want, line string }{
		{"plain text, é 語 🙂", "plain text, é 語 🙂", "plain text, é 語 🙂"},
		{"\x1b]0;owned\x07title", "^[]0;owned^Gtitle", "^[]0;owned^Gtitle"},
		{"\x1b[2J\x1b[H", "^[[2J^[[H", "^[[2J^[[H"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "^[]8;;http://x^[\\link^[]8;;^[\\", "^[]8;;http://x^[\\link^[]8;;^[\\"},
		{"a\u009b2Jb\u009d0;x\u009c", "a<U+009B>2Jb<U+009D>0;x<U+009C>", "a<U+009B>2Jb<U+009D>0;x<U+009C>"},
		{"one\ntwo\tthree", "one\ntwo\tthree", "one two three"},
		{"dos\r\nline\rover", "dos\nline^Mover", "dos line^Mover"},
		{"\x00\x7f\x08", "^@^?^H", "^@^?^H"},
		{"raw \x9b byte", "raw \ufffd byte", "raw \ufffd byte"},
		// Trojan Source (CVE-2021-42574): every explicit bidi control shows.
		{"if admin \u202e} \u2066// check\u2069 \u2067{", "if admin <U+202E>} <U+2066>// check<U+2069> <U+2067>{", "if admin <U+202E>} <U+2066>// check<U+2069> <U+2067>{"},
		{"\u202a\u202b\u202c\u202d\u2068", "<U+202A><U+202B><U+202C><U+202D><U+2068>", "<U+202A><U+202B><U+202C><U+202D><U+2068>"},
		// Their neighbours, and the marks right-to-left text needs, stay.
		{"\u2029\u202f\u2065\u206a \u200e\u200f\u061c שלום", "\u2029\u202f\u2065\u206a \u200e\u200f\u061c שלום", "\u2029\u202f\u2065\u206a \u200e\u200f\u061c שלום"},
	} {
		if got := Visible(tc.in); got != tc.want {
			t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := VisibleLine(tc.in); got != tc.line {
			t.Errorf("VisibleLine(%q) = %q, want %q", tc.in, got, tc.line)
		}
	}
}

func TestVisibleWriterHoldsWhatACutLeavesIncomplete(t *testing.T) {
	in := "a\u009b2J\r\nb\x1b]0;t\x07é語\u202eb\u2066"
	want := Visible(in)
	for cut := 0; cut <= len(in); cut++ {
		for cut2 := cut; cut2 <= len(in); cut2++ {
			var b strings.Builder
			v := NewVisibleWriter(&b)
			v.Write([]byte(in[:cut]))
			v.Write([]byte(in[cut:cut2]))
			v.Write([]byte(in[cut2:]))
			v.Flush()
			if b.String() != want {
				t.Fatalf("cut at %d and %d: %q, want %q", cut, cut2, b.String(), want)
			}
		}
	}
}

// BenchmarkVisible measures Visible over 1 MiB of reply text, clean (the
// common case: returned without a copy) and holding an escape per line.
func BenchmarkVisible(b *testing.B) {
	line := strings.Repeat("déjà vu, 語 ", 6) + "\n"
	clean := strings.Repeat(line, (1<<20)/len(line))
	dirty := strings.ReplaceAll(clean, "\n", "\x1b[2J\n")
	for _, bc := range []struct{ name, s string }{{"clean", clean}, {"escapes", dirty}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.s)))
			b.ReportAllocs()
			for b.Loop() {
				Visible(bc.s)
			}
		})
	}
}
