package jsonrpcline

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReaderBoundsLinesAndFindsTheirIDs(t *testing.T) {
	const limit = 16
	in := strings.Join([]string{
		`{"id":1}`,
		strings.Repeat("a", limit),
		strings.Repeat("b", limit+1),
		`{"jsonrpc":"2.0","id":"x","params":"` + strings.Repeat("c", 100) + `"}`,
		`{"params":"` + strings.Repeat("d", 100) + `","id":2}`,
		`{"params":"` + strings.Repeat("d", sniffBytes) + `","id":3}`, // the id is past the start kept
		`last`,
	}, "\n") + "\n" + strings.Repeat("e", limit+1) // no newline at the end
	r := NewReader(strings.NewReader(in), limit)
	type step struct{ line, id string }
	want := []step{{`{"id":1}`, ""}, {strings.Repeat("a", limit), ""}, {"", "null"}, {"", `"x"`}, {"", "2"}, {"", "null"}, {"last", ""}, {"", "null"}}
	for i, w := range want {
		line, err := r.Next()
		var e *Error
		switch {
		case w.id == "" && (err != nil || string(line) != w.line):
			t.Fatalf("line %d: %q, %v", i, line, err)
		case w.id != "" && (!errors.As(err, &e) || string(e.IDs[0]) != w.id || e.Code != CodeInvalidRequest || line != nil):
			t.Fatalf("line %d: want a refusal under %s, got %q, %v", i, w.id, line, err)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
}

func TestExcerptIsBoundedAndQuoted(t *testing.T) {
	got := Excerpt([]byte("\x1b]0;title\x07" + strings.Repeat("z", 1000)))
	if strings.ContainsAny(got, "\x1b\x07") || len(got) > ExcerptBytes+40 || !strings.Contains(got, "1010 bytes") {
		t.Fatalf("excerpt %q", got)
	}
}
