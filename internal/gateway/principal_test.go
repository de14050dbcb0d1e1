package gateway

import (
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/session"
)

// TestMirrorNamesAreValidSessionNames: whatever id a platform sends, the
// mirror's name, and the next one's, is a name the store accepts.
func TestMirrorNamesAreValidSessionNames(t *testing.T) { // case name-1
	for _, user := range []string{"42", "-1001234567890", "U012AB3CD", "+55 11 99999-0000", "a..b", "..", ".", "end.",
		"@alice:matrix.org", "../../x", `C:\x`, "a\x00b", "日本語", "", strings.Repeat("9", 300), strings.Repeat("é", 200)} {
		p := Principal{Channel: "telegram", User: user}
		name := p.mirrorBase()
		if n, err := session.NormalizeName(name); err != nil || n != name {
			t.Errorf("user %q: mirror %q: %v", user, name, err)
		}
		if !strings.HasPrefix(name, MirrorPrefix+"telegram-") {
			t.Errorf("user %q: mirror %q", user, name)
		}
		next := name + "-20261201-120000-abcd" // nextMirror's suffix
		if _, err := session.NormalizeName(next); err != nil {
			t.Errorf("user %q: next mirror %q: %v", user, next, err)
		}
	}
	for _, pair := range [][2]string{{"42", "43"}, {strings.Repeat("9", 300), strings.Repeat("9", 299) + "8"}} {
		a, b := (Principal{"telegram", pair[0]}).mirrorBase(), (Principal{"telegram", pair[1]}).mirrorBase()
		if a == b {
			t.Errorf("users %.8q… and %.8q… share the mirror name %q", pair[0], pair[1], a)
		}
	}
}
