package search

import (
	"fmt"
	"strings"
)

// Query is a parsed search query: documents matching any clause of Any
// are ranked with BM25; a document matching a clause of Not is left out.
type Query struct {
	Any []Clause
	Not []Clause
}

// Clause is one term, or a phrase: terms that must occur at consecutive
// token positions, in order.
type Clause []string

// Terms returns the distinct terms of q's ranked clauses, for snippets.
func (q Query) Terms() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range q.Any {
		for _, t := range c {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// ParseQuery reads a query: words, "quoted phrases", and -word or
// -"phrase" for what a hit must not hold (the syntax of web search
// engines). A word of a script written without spaces (Thai, Lao, Khmer,
// Myanmar) is a phrase of its character pairs, so it matches where those
// characters stand together inside a longer run. An unclosed quote runs
// to the end. A query with no letter or digit outside its exclusions
// returns an error wrapping ErrEmptyQuery.
func ParseQuery(s string) (Query, error) {
	var q Query
	seen := map[string]bool{}
	for rest := strings.TrimSpace(s); rest != ""; rest = strings.TrimLeft(rest, " \t\r\n") {
		not := false
		if len(rest) > 1 && rest[0] == '-' {
			not, rest = true, rest[1:]
		}
		var text string
		phrase := rest[0] == '"'
		if phrase {
			text, rest, _ = strings.Cut(rest[1:], `"`)
		} else if i := strings.IndexAny(rest, " \t\r\n"); i >= 0 {
			text, rest = rest[:i], rest[i:]
		} else {
			text, rest = rest, ""
		}
		for _, c := range clauses(text, phrase) {
			key := strings.Join(c, "\x00")
			if not {
				q.Not = append(q.Not, c)
			} else if !seen[key] {
				seen[key] = true
				q.Any = append(q.Any, c)
			}
		}
	}
	if len(q.Any) == 0 {
		return Query{}, fmt.Errorf("%w: %q has no letter or digit to look for", ErrEmptyQuery, s)
	}
	return q, nil
}

// clauses splits text into its clauses: one phrase when phrase, else one
// clause per token, overlapping pairs of one run joined into a phrase.
func clauses(text string, phrase bool) []Clause {
	var out []Clause
	var cur Clause
	lastEnd := -1
	tokens(text, func(s, e int) bool {
		t := fold(text[s:e])
		if t == "" {
			return true
		}
		if !phrase && s >= lastEnd && len(cur) > 0 { // not a pair overlapping the previous token
			out, cur = append(out, cur), nil
		}
		cur, lastEnd = append(cur, t), e
		return true
	})
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
