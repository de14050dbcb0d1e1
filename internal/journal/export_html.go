package journal

import "strings"

// htmlBlocks are the CommonMark HTML blocks (kinds 1-5 of the spec, §4.6)
// that only end at an explicit marker: left open in one message, they
// would swallow every later section of an export.
var htmlBlocks = []struct{ start, end string }{
	{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"},
	{"<script", "</script>"}, {"<pre", "</pre>"}, {"<style", "</style>"}, {"<textarea", "</textarea>"},
}

// unclosedHTML returns the end marker of an HTML block that text opens and
// never closes, or "". A line opens a block when, after at most three
// spaces, it starts with the block's start (case-insensitive); the block
// ends on the first later occurrence of its end marker.
func unclosedHTML(text string) string {
	lower := strings.ToLower(text)
	open := ""
	for pos := 0; pos < len(lower); {
		end := strings.IndexByte(lower[pos:], '\n')
		if end < 0 {
			end = len(lower) - pos
		}
		line := lower[pos : pos+end]
		next := pos + end + 1
		if open != "" {
			if strings.Contains(line, open) {
				open = ""
			}
		} else if t := strings.TrimLeft(line, " "); len(line)-len(t) <= 3 {
			for _, b := range htmlBlocks {
				if strings.HasPrefix(t, b.start) && !strings.Contains(t[len(b.start):], b.end) {
					open = b.end
					break
				}
			}
		}
		pos = next
	}
	return open
}
