package conversation

import (
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/index"
)

// A search hit's source names its forks and a deleted session in the
// language of the output; the names stay as they are.
func TestHitSourceInPortuguese(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	for _, c := range []struct {
		h      index.Hit
		en, pt string
	}{
		{index.Hit{Session: "demo", Members: []string{"a", "b", "c", "d", "e"}},
			"demo (also in a, b, c and 2 more)", "demo (também em a, b, c e mais 2)"},
		{index.Hit{Session: "demo", Deleted: true, Members: []string{"a-2"}},
			"demo (deleted) (also in a-2)", "demo (apagada) (também em a-2)"},
		{index.Hit{Session: "demo"}, "demo", "demo"},
	} {
		if got := HitSource(c.h); got != c.en {
			t.Errorf("English: %q, want %q", got, c.en)
		}
		if got := HitSourceIn(pt, c.h); got != c.pt {
			t.Errorf("Portuguese: %q, want %q", got, c.pt)
		}
	}
}
