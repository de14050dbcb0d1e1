package gateway

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Split cuts Markdown text into parts of at most limit characters (runes)
// each, for platforms with a message limit. It cuts at the last blank line
// before the limit, else the last line break, else the last space, else
// between two characters (never inside one: an emoji sequence, a flag or
// a letter with its accents stays whole). A fenced code block that is
// cut is closed at the end of its part and opened again, with its info
// string, at the start of the next; limit leaves room for that. Parts
// hold no leading or trailing blank lines; an empty text has no parts.
func Split(text string, limit int) []string {
	text = strings.Trim(text, "\n")
	var parts []string
	reopen := ""
	for text != "" {
		room := limit - utf8.RuneCountInString(reopen)
		fence := ""
		if utf8.RuneCountInString(text) <= room {
			parts = append(parts, reopen+text)
			break
		}
		cut := cutAt(text, room-8) // room for "\n```" closing a fence
		head := text[:cut]
		if f, open := openFence(reopen + head); open {
			fence = f
			head = strings.TrimRight(head, "\n") + "\n```"
		}
		parts = append(parts, strings.TrimRight(reopen+head, " \n"))
		text = strings.TrimLeft(text[cut:], "\n")
		reopen = ""
		if fence != "" {
			reopen = fence + "\n"
		}
	}
	return parts
}

// cutAt returns the byte index where text is cut to hold at most n runes:
// after the last blank line, line break or space within them, else after
// the last whole character (grapheme cluster: an emoji sequence, a flag, a
// letter and its accents) that fits, else, for one character longer than
// n runes, after n runes.
func cutAt(text string, n int) int {
	n = max(n, 1)
	end, count := 0, 0
	rest, state := text, -1
	for rest != "" {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		runes := utf8.RuneCountInString(c)
		if count+runes > n {
			break
		}
		end += len(c)
		count += runes
	}
	if end == 0 {
		end = len(text)
		count = 0
		for i := range text {
			if count == n {
				end = i
				break
			}
			count++
		}
	}
	head := text[:end]
	for _, sep := range []string{"\n\n", "\n", " "} {
		if i := strings.LastIndex(head, sep); i > 0 {
			return i + len(sep)
		}
	}
	return end
}

// openFence reports whether text ends inside a fenced code block (a line
// starting with ``` opens or closes one) and returns its opening line.
func openFence(text string) (string, bool) {
	open := ""
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "```") {
			continue
		}
		if open == "" {
			open = t
		} else if t == "```" {
			open = ""
		}
	}
	return open, open != ""
}
