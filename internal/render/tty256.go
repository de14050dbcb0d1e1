package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// This file is chroma's 256-colour terminal formatter (formatters.TTY256,
// formatters/tty_indexed.go and writeToken of tty_truecolour.go; see
// chroma/LICENSE), written out so that chroma's formatters package, which
// registers and so links the HTML and SVG formatters too, is not linked.
// Its output is byte for byte formatters.TTY256's (tty256_test.go).

// palette256 returns colour i of the xterm 256-colour palette, as chroma's
// table has it: the 16 system colours, the 6×6×6 cube, the 24 greys.
func palette256(i int) chroma.Colour {
	switch {
	case i < 16:
		v := system16[i]
		return chroma.NewColour(uint8(v>>16), uint8(v>>8), uint8(v))
	case i < 232:
		i -= 16
		return chroma.NewColour(cubeLevel(i/36), cubeLevel(i/6%6), cubeLevel(i%6))
	default:
		g := uint8(8 + 10*(i-232))
		return chroma.NewColour(g, g, g)
	}
}

// system16 are the colours of indexes 0 to 15, as 0xRRGGBB.
var system16 = [16]uint32{
	0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xc0c0c0,
	0x808080, 0xff0000, 0x00ff00, 0xffff00, 0x0000ff, 0xff00ff, 0x00ffff, 0xffffff,
}

// cubeLevel is the intensity of step n (0 to 5) of the colour cube.
func cubeLevel(n int) uint8 {
	if n == 0 {
		return 0
	}
	return uint8(55 + 40*n)
}

// closest256 returns the palette index nearest to c by chroma's colour
// distance. A colour listed twice (a system colour repeated in the cube or
// the greys) takes its last index, as in chroma's table, whose later entry
// replaces the earlier.
func closest256(c chroma.Colour) int {
	best, bestDistance := 0, math.MaxFloat64
	for i := 255; i >= 0; i-- {
		if d := palette256(i).Distance(c); d < bestDistance {
			best, bestDistance = i, d
		}
	}
	return best
}

// escapes256 returns the escape sequence that starts each token type of
// style, its background colour cleared, for a 256-colour terminal.
func escapes256(style *chroma.Style) map[chroma.TokenType]string {
	b := style.Builder()
	bg := b.Get(chroma.Background)
	bg.Background = 0
	bg.NoInherit = true
	b.AddEntry(chroma.Background, bg)
	style, _ = b.Build()
	out := map[chroma.TokenType]string{}
	for _, t := range style.Types() {
		e := style.Get(t)
		s := ""
		if e.Bold == chroma.Yes {
			s += "\033[1m"
		}
		if e.Underline == chroma.Yes {
			s += "\033[4m"
		}
		if e.Italic == chroma.Yes {
			s += "\033[3m"
		}
		if e.Colour.IsSet() {
			s += "\033[38;5;" + strconv.Itoa(closest256(e.Colour)) + "m"
		}
		if e.Background.IsSet() {
			s += "\033[48;5;" + strconv.Itoa(closest256(e.Background)) + "m"
		}
		out[t] = s
	}
	return out
}

// format256 writes the tokens of it to b, each in the escape sequence of
// its type (else of its subcategory, its category, Text, Background).
func format256(b *strings.Builder, escapes map[chroma.TokenType]string, it chroma.Iterator) {
	for t := it(); t != chroma.EOF; t = it() {
		s, ok := escapes[t.Type]
		if !ok {
			s, ok = escapes[t.Type.SubCategory()]
		}
		if !ok {
			s, ok = escapes[t.Type.Category()]
		}
		if !ok {
			s, ok = escapes[chroma.Text]
		}
		if !ok {
			s = escapes[chroma.Background]
		}
		writeToken256(b, s, t.Value)
	}
}

// writeToken256 writes text in the escape sequence esc, reset at the end
// of each line and started again on the next, so that any line shown on
// its own has its colours.
func writeToken256(b *strings.Builder, esc, text string) {
	if esc == "" {
		b.WriteString(text)
		return
	}
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			b.WriteString(esc + text + "\033[0m")
			return
		}
		end := i
		if end > 0 && text[end-1] == '\r' {
			end--
		}
		b.WriteString(esc + text[:end] + "\033[0m" + text[end:i+1])
		text = text[i+1:]
	}
}
