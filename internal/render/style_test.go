package render

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestLabelledColoursErrorsWarningsAndNotes(t *testing.T) {
	var b bytes.Buffer
	w := Labelled(&b)
	for _, line := range []string{"error: boom", "warning: careful", "note: fyi", "plain"} {
		b.Reset()
		n, err := fmt.Fprintln(w, line)
		if err != nil || n != len(line)+1 {
			t.Fatalf("%q: wrote %d, %v", line, n, err)
		}
		coloured := b.String() != line+"\n"
		if want := line != "plain"; coloured != want {
			t.Fatalf("%q written as %q", line, b.String())
		}
		if ansi.Strip(b.String()) != line+"\n" {
			t.Fatalf("%q: text changed: %q", line, b.String())
		}
	}
}
