package editor

import (
	"context"
	"io"
	"slices"
	"testing"
	"time"
)

// TestTypeAheadStartsTheNextLines: bytes another reader took from the
// terminal while no line was read (keys typed during a reply, Enter as a
// line feed) become the next lines, edited as typed; Esc, arrow keys and
// Ctrl+D among them are dropped, so the REPL neither quits nor cancels,
// and so are the terminal's late replies to the editor's queries.
func TestTypeAheadStartsTheNextLines(t *testing.T) {
	interactive(t)
	e, err := New(Config{In: heldOpen(t, "tail\r\x04"), Out: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	e.TypeAhead([]byte("/modex\x7fl\nSão\x1b[A\x1bOP\x1b\x04 Paulo\r"))
	e.TypeAhead([]byte("two\x1b\rlines\r")) // Alt+Enter breaks the line
	e.TypeAhead([]byte("half \x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?2026;2$y\x1b]10;rgb:ffff/ffff/ffff\x07"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := readToEOF(t, ctx, e, nil)
	if want := []string{"/model", "São Paulo", "two\nlines", "half tail"}; !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}
