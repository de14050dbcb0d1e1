package repl

import "testing"

func TestLoneEsc(t *testing.T) {
	for in, want := range map[string]bool{"\x1b": true, "a\x1b": true, "\x1b[A": false, "\x1bOP": false, "\x1b\x1b": true, "abc": false, "\x1b[A\x1b": true} {
		if got := loneEsc([]byte(in)); got != want {
			t.Errorf("%q: %v", in, got)
		}
	}
}
