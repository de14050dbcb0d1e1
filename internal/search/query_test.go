package search

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseQuery(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Query
	}{
		{"Deploy freeze", Query{Any: []Clause{{"deploy"}, {"freeze"}}}},
		{`"Deploy FREEZE" now`, Query{Any: []Clause{{"deploy", "freeze"}, {"now"}}}},
		{`freeze -friday -"last week"`, Query{Any: []Clause{{"freeze"}}, Not: []Clause{{"friday"}, {"last", "week"}}}},
		{`"unclosed quote`, Query{Any: []Clause{{"unclosed", "quote"}}}},
		{"กขค x", Query{Any: []Clause{{"กข", "ขค"}, {"x"}}}},
		{"a a A", Query{Any: []Clause{{"a"}}}},
		{"- x", Query{Any: []Clause{{"x"}}}},
	} {
		got, err := ParseQuery(tc.in)
		if err != nil {
			t.Fatalf("ParseQuery(%q): %v", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseQuery(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
	for _, in := range []string{"", "  ", "-only", `-"not this"`, "!!"} {
		if _, err := ParseQuery(in); !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("ParseQuery(%q) = %v, want ErrEmptyQuery", in, err)
		}
	}
}
