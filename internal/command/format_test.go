package command

import (
	"testing"

	"github.com/rivo/uniseg"
)

// cellWidth agrees with uniseg.StringWidth: ASCII, accents, CJK, emoji
// (with modifiers and joiners), combining marks, control bytes, an
// ellipsis.
func TestCellWidthIsStringWidth(t *testing.T) {
	for _, s := range []string{"", "demo-2", "Sessão de café", "会话 列表", "👍🏽 ok", "👩‍💻 code", "e\u0301", "a\tb", "turn 0: a long prompt…", "한국어", "turn 0: a long prompt, as pasted logs make them; a l…", "abe\u0301 x", "ok 👍🏽", "x\x1by"} {
		if got, want := cellWidth(s), uniseg.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, StringWidth = %d", s, got, want)
		}
	}
}
