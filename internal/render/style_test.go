package render

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Errors, warnings and notes are coloured by their labels in English and
// in Portuguese.
func TestLabelledColoursErrorsWarningsAndNotes(t *testing.T) {
	var b bytes.Buffer
	w := Labelled(&b)
	for _, line := range []string{"error: boom", "warning: careful", "note: fyi", "erro: falhou", "aviso: cuidado", "nota: veja", "plain"} {
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
