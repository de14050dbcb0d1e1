package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// boundaries returns every grapheme-cluster boundary of s (0 and len(s)
// included), segmenting from the start.
func boundaries(s string) map[int]bool {
	out := map[int]bool{0: true}
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		_, end := g.Positions()
		out[end] = true
	}
	return out
}

var noteRE = regexp.MustCompile(`\n\[… ([0-9,]+) bytes cut …\]\n`)

// checkClipped verifies that out is s capped at capBytes: s itself when it
// fits, otherwise the longest head of at most capBytes/2 bytes and the
// longest tail of at most the rest, both cut on grapheme boundaries, with a
// note giving the exact number of bytes cut.
func checkClipped(t *testing.T, s, out string, capBytes int) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("cap %d: invalid UTF-8 %q", capBytes, out)
	}
	if len(s) <= capBytes {
		if out != s {
			t.Fatalf("cap %d: fitting text changed: %q", capBytes, out)
		}
		return
	}
	loc := noteRE.FindStringSubmatchIndex(out)
	if loc == nil {
		t.Fatalf("cap %d: no note in %q", capBytes, out)
	}
	head, tail := out[:loc[0]], out[loc[1]:]
	cut, _ := strconv.Atoi(strings.ReplaceAll(out[loc[2]:loc[3]], ",", ""))
	bounds := boundaries(s)
	h, tb := len(head), len(s)-len(tail)
	if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
		t.Fatalf("cap %d: head %q / tail %q not from the text", capBytes, head, tail)
	}
	if !bounds[h] || !bounds[tb] {
		t.Fatalf("cap %d: cut inside a character: head %d bytes, tail from %d", capBytes, h, tb)
	}
	if cut != tb-h || cut <= 0 {
		t.Fatalf("cap %d: note says %d bytes cut, cut %d", capBytes, cut, tb-h)
	}
	half := capBytes / 2
	if h > half || len(tail) > capBytes-half {
		t.Fatalf("cap %d: kept %d+%d bytes", capBytes, h, len(tail))
	}
	for b := h + 1; b <= half; b++ {
		if bounds[b] {
			t.Fatalf("cap %d: head stops at %d though %d is a boundary", capBytes, h, b)
		}
	}
	for b := len(s) - (capBytes - half); b < tb; b++ {
		if b >= 0 && bounds[b] {
			t.Fatalf("cap %d: tail starts at %d though %d is a boundary", capBytes, tb, b)
		}
	}
}

var clipTexts = map[string]string{
	"ascii":    "The quick brown fox jumps over the lazy dog.\nSecond line.\n",
	"japanese": "吾輩は猫である。名前はまだ無い。\nどこで生れたかとんと見当がつかぬ。",
	"zwj":      "👨‍👩‍👧‍👦🏳️‍🌈👩🏽‍💻🧑‍🤝‍🧑👨‍👩‍👧‍👦",
	"flags":    "🇯🇵🇫🇷🇧🇷🇺🇸🇩🇪",
	"marks":    "éñ̃ẫ\u0915\u094d\u0937 Z̵̡̢͇a̸̛͓l̴̰͝g̷̠͌o̵͚͂",
	"mixed":    "ok 日本 👨‍👩‍👧‍👦 e\u0301 🇯🇵\r\n終わり🏳️‍🌈",
}

func TestClipAtEveryCap(t *testing.T) { // every cap from 1 byte to past the length
	texts := map[string]string{"long flags": strings.Repeat(clipTexts["flags"], 30)}
	for name, s := range clipTexts {
		texts[name] = s
	}
	for name, s := range texts {
		t.Run(name, func(t *testing.T) {
			for capBytes := 1; capBytes <= len(s)+2; capBytes++ {
				checkClipped(t, s, clip(s, capBytes), capBytes)
			}
		})
	}
}

func TestClipKeepsHeadAndTail(t *testing.T) {
	s := strings.Repeat("日本語👨‍👩‍👧‍👦", 50) + "END"
	out := clip("BEGIN"+s, 100)
	if !strings.HasPrefix(out, "BEGIN") || !strings.HasSuffix(out, "END") || !strings.Contains(out, "bytes cut") {
		t.Fatalf("%q", out)
	}
}

func TestClipReplacesInvalidUTF8(t *testing.T) {
	s := "ab\xffcd" + strings.Repeat("x", 100) + "\xfe"
	for _, capBytes := range []int{4, 10, 1000} {
		if out := clip(s, capBytes); !utf8.ValidString(out) {
			t.Fatalf("cap %d: %q", capBytes, out)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 12345: "12,345", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
}

// TestCaptureMatchesClip writes long texts in chunks of several sizes and
// checks the capture gives what clip gives for the whole text.
func TestCaptureMatchesClip(t *testing.T) {
	var texts []string
	for name, s := range clipTexts {
		texts = append(texts, s)
		if name != "flags" {
			// A capture whose ring starts inside a run of flags longer
			// than it cannot know their pairing (see ceilBoundary).
			texts = append(texts, strings.Repeat(s, 200))
		}
	}
	texts = append(texts, strings.Repeat("👨‍👩‍👧‍👦", 1000)) // no line feed to start from
	for i, s := range texts {
		for _, capBytes := range []int{1, 7, 64, 100, 1000, 4096} {
			for _, chunk := range []int{1, 13, 4096, len(s)} {
				c := &capture{capBytes: capBytes}
				for rest := s; rest != ""; {
					k := min(chunk, len(rest))
					if n, err := c.Write([]byte(rest[:k])); n != k || err != nil {
						t.Fatal(n, err)
					}
					rest = rest[k:]
				}
				got := c.String()
				if want := clip(s, capBytes); got != want {
					t.Fatalf("text %d cap %d chunk %d:\n got %q\nwant %q", i, capBytes, chunk, got, want)
				}
				checkClipped(t, s, got, capBytes)
				if len(c.head) > capBytes || len(c.tail) > capBytes+syncBytes {
					t.Fatalf("capture kept %d+%d bytes", len(c.head), len(c.tail))
				}
			}
		}
	}
}

func BenchmarkCapture(b *testing.B) {
	line := []byte(fmt.Sprintf("%s\n", strings.Repeat("日本語 output ", 8)))
	for b.Loop() {
		c := &capture{capBytes: DefaultOutputCapBytes}
		for range 10000 {
			c.Write(line)
		}
		_ = c.String()
	}
}
