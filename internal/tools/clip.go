package tools

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/rivo/uniseg"
)

// syncBytes is how far before a cut point the grapheme segmenter starts when
// it cannot start at the beginning of the text: enough for any common
// cluster (the longest emoji ZWJ sequences are about 35 bytes).
const syncBytes = 1024

// clip caps s at capBytes of text: when s is longer, it keeps a head of at
// most capBytes/2 bytes and a tail of at most the rest, joined by a note
// saying how many bytes were cut ("[… 12,345 bytes cut …]"). Cuts fall on
// grapheme-cluster boundaries (UAX #29), so no character, emoji sequence or
// letter with its combining marks is split. The note is not counted in
// capBytes. Invalid UTF-8 becomes U+FFFD (message.ValidUTF8).
func clip(s string, capBytes int) string {
	return clipParts(s, s, len(s), capBytes)
}

// clipParts is clip for a text of total bytes of which only a prefix (head)
// and a suffix (tail) are known; head and tail may overlap or each be the
// whole text. head must hold at least capBytes/2 bytes and tail at least
// capBytes-capBytes/2 bytes whenever total > capBytes.
func clipParts(head, tail string, total, capBytes int) string {
	if total <= capBytes {
		return message.ValidUTF8(head[:total])
	}
	h := capBytes / 2
	t := capBytes - h
	hb := floorBoundary(head, h)
	tb := ceilBoundary(tail, len(tail)-t)
	kept := hb + len(tail) - tb
	return message.ValidUTF8(head[:hb]) + cutNote(total-kept) + message.ValidUTF8(tail[tb:])
}

// cutNote is the line that replaces n cut bytes.
func cutNote(n int) string {
	return fmt.Sprintf("\n[… %s bytes cut …]\n", thousands(n))
}

// thousands writes n with comma separators: 12345 → "12,345".
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// floorBoundary returns the largest grapheme boundary of s that is <= p.
// s is segmented from its start, so the answer is exact.
func floorBoundary(s string, p int) int {
	if p >= len(s) {
		return len(s)
	}
	at, state := 0, -1
	rest := s
	for len(rest) > 0 {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if at+len(c) > p {
			return at
		}
		at += len(c)
	}
	return at
}

// ceilBoundary returns the smallest grapheme boundary of s that is >= p.
// Segmentation starts after the last line feed before p (a cluster always
// ends at a line feed, UAX #29 rule GB4) or, without one nearby, at a rune
// start syncBytes before p, moved back to the start of a run of regional
// indicators; s may begin in the middle of a character. The answer is exact
// unless s begins inside a run of flags that reaches the cut.
func ceilBoundary(s string, p int) int {
	if p <= 0 {
		return firstRuneStart(s, 0)
	}
	if p >= len(s) {
		return len(s)
	}
	start := max(0, p-syncBytes)
	if i := strings.LastIndexByte(s[start:p], '\n'); i >= 0 {
		start += i + 1
	} else {
		start = firstRuneStart(s, start)
		// Regional indicators pair up into flags counting from the start
		// of their run (GB12, GB13): start at the run's beginning.
		for start > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:start])
			if r < 0x1F1E6 || r > 0x1F1FF {
				break
			}
			start -= size
		}
	}
	at, state := start, -1
	rest := s[start:]
	for at < p && len(rest) > 0 {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		at += len(c)
	}
	return at
}

// firstRuneStart returns the first index >= i that starts a rune (at most
// utf8.UTFMax-1 bytes on; a stray continuation byte further on is invalid
// UTF-8 and is treated as a character of its own).
func firstRuneStart(s string, i int) int {
	for j := i; j < len(s) && j < i+utf8.UTFMax; j++ {
		if utf8.RuneStart(s[j]) {
			return j
		}
	}
	return min(i, len(s))
}

// capture is an io.Writer that keeps the first capBytes bytes and the last
// capBytes+syncBytes bytes of everything written to it (the extra bytes let
// the tail cut start segmenting before the cut point) and counts the total,
// so a command printing gigabytes costs about 2×capBytes of memory.
type capture struct {
	capBytes int
	head     []byte
	tail     []byte // ring buffer once full; start is the oldest byte
	start    int
	total    int
}

func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += n
	if room := c.capBytes - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(room, len(p))]...)
	}
	size := c.capBytes + syncBytes
	if len(p) > size {
		p = p[len(p)-size:]
	}
	for len(p) > 0 {
		if len(c.tail) < size {
			k := min(size-len(c.tail), len(p))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(c.tail[c.start:], p)
		p = p[k:]
		c.start = (c.start + k) % size
	}
	return n, nil
}

// String returns the captured text clipped as clip does.
func (c *capture) String() string {
	tail := string(c.tail[c.start:]) + string(c.tail[:c.start])
	if c.total <= len(c.head)+len(tail) {
		// Head and tail together hold everything: rebuild it exactly.
		whole := string(c.head) + tail[len(tail)-(c.total-len(c.head)):]
		return clip(whole, c.capBytes)
	}
	return clipParts(string(c.head), tail, c.total, c.capBytes)
}
