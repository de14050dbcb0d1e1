package compact

import (
	"fmt"
	"slices"
	"strings"
)

// The sections of a summary, in their canonical order.
const (
	secFilesRead = iota
	secFilesModified
	secCommands
	secDecisions
	secErrors
	secState
	numSections
)

var sectionNames = [numSections]string{
	"Files Read", "Files Modified", "Commands Executed",
	"Key Decisions", "Errors & Resolutions", "Current Task State",
}

// markerPrefixes start the first line of a summary or truncation marker;
// such lines are never copied into a new summary.
var markerPrefixes = []string{"[COMPACT", "[GUIDED COMPACT", "[CONTEXT TRUNCATED"}

// sections holds the lines of each section of a summary.
type sections [numSections][]string

// parseSections splits a summary at its "## Name" headings. Headings are
// recognised at any level, in bold, numbered, with a colon or with "and"
// for "&". Text under an unknown heading goes to Current Task State; text
// before the first heading is dropped (a model's "Here is the summary"),
// unless there is no known heading at all: then all of the text is the
// Current Task State. "none" lines and marker lines are dropped. found
// reports whether any known heading was seen.
func parseSections(text string) (s sections, found bool) {
	const preamble = -1
	var pre sections
	cur := preamble
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" || isMarkerLine(line) || strings.HasPrefix(line, morePrefix) {
			continue
		}
		if i, ok := headingOf(line); ok {
			if i >= 0 {
				cur, found = i, true
			} else {
				cur = secState
			}
			continue
		}
		switch {
		case isNone(line):
		case cur == preamble:
			pre.add(secState, line)
		default:
			s.add(cur, line)
		}
	}
	if !found {
		pre.union(s) // text under unknown headings only
		return pre, false
	}
	return s, true
}

// headingOf reports whether line is a heading and which known section it
// names (-1 for an unknown one).
func headingOf(line string) (int, bool) {
	t := strings.TrimSpace(line)
	bold := strings.HasPrefix(t, "**") && strings.HasSuffix(strings.TrimSuffix(t, ":"), "**")
	if !strings.HasPrefix(t, "#") && !bold {
		return 0, false
	}
	name := strings.ToLower(strings.Trim(t, "#*: \t"))
	name = strings.TrimLeft(name, "0123456789. ")
	name = strings.ReplaceAll(name, " and ", " & ")
	for i, n := range sectionNames {
		if name == strings.ToLower(n) {
			return i, true
		}
	}
	return -1, !bold
}

func isMarkerLine(line string) bool {
	for _, p := range markerPrefixes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

func isNone(line string) bool {
	t := strings.ToLower(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*•")))
	switch strings.Trim(t, "()._ ") {
	case "none", "n/a", "nothing", "none so far", "no errors":
		return true
	}
	return false
}

// add appends line to section i unless it is already there; "*" and "•"
// bullets become "-".
func (s *sections) add(i int, line string) {
	for _, b := range []string{"* ", "• "} {
		if rest, ok := strings.CutPrefix(line, b); ok {
			line = "- " + rest
		}
	}
	for _, l := range s[i] {
		if l == line {
			return
		}
	}
	s[i] = append(s[i], line)
}

// addFact appends f's line to its section unless a line there already
// states it (names its key, or is the same line).
func (s *sections) addFact(f fact) {
	for _, l := range s[f.section] {
		if l == f.line || (len(f.key) >= 3 && strings.Contains(l, f.key)) {
			return
		}
	}
	s[f.section] = append(s[f.section], f.line)
}

// union adds every line of o to s, section by section.
func (s *sections) union(o sections, only ...int) {
	for i := range numSections {
		if len(only) > 0 && !slices.Contains(only, i) {
			continue
		}
		for _, l := range o[i] {
			s.add(i, l)
		}
	}
}

// keepLast drops all but the last n lines of section i.
func (s *sections) keepLast(i, n int) {
	if len(s[i]) > n {
		s[i] = s[i][len(s[i])-n:]
	}
}

// maxSectionLines caps the lines a section of a summary shows: long file
// and command lists would otherwise grow with every compaction a session
// goes through and crowd out the rest of the summary.
const maxSectionLines = 30

// morePrefix starts the line standing for the lines a capped section
// leaves out; parseSections drops it.
const morePrefix = "- … and "

// render writes header and the six sections in canonical order; an empty
// section says "- none", and one with more than maxSectionLines lines
// shows its latest ones after "- … and N more".
func (s *sections) render(header string) string {
	var b strings.Builder
	b.WriteString(header)
	for i, name := range sectionNames {
		b.WriteString("\n\n## ")
		b.WriteString(name)
		lines := s[i]
		if len(lines) == 0 {
			b.WriteString("\n- none")
		}
		if n := len(lines) - maxSectionLines; n > 0 {
			fmt.Fprintf(&b, "\n%s%d more", morePrefix, n)
			lines = lines[n:]
		}
		for _, l := range lines {
			b.WriteByte('\n')
			b.WriteString(l)
		}
	}
	return b.String()
}
