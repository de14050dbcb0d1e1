package memory

import (
	"fmt"
	"strings"
)

// Budget is the default size, in bytes, of the memory sent with a request
// (8 KiB): the newest notes that fit.
const Budget = 8 << 10

// Text renders notes (oldest first, as List returns them) as the system
// content of a request: newest first, as many whole notes as fit in
// budgetBytes, and a last line saying how many older notes were left out.
// It is "" when there are no notes.
func Text(notes []Note, budgetBytes int) string {
	if len(notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Memory (notes the user saved with /memory; newest first):\n")
	used, shown := 0, 0
	for i := len(notes) - 1; i >= 0; i-- {
		line := fmt.Sprintf("- [%s] %s\n", notes[i].SavedAt.Format("2006-01-02"), strings.ReplaceAll(notes[i].Text, "\n", " "))
		if used+len(line) > budgetBytes && shown > 0 {
			break
		}
		b.WriteString(line)
		used, shown = used+len(line), shown+1
	}
	if left := len(notes) - shown; left > 0 {
		fmt.Fprintf(&b, "(%d older notes left out to keep this short; /memory list shows them all)\n", left)
	}
	return b.String()
}
