package session

import (
	"regexp"
	"strings"
	"testing"
)

func TestChatcliNameIsChatCLIsRule(t *testing.T) {
	rule := regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_\-.]{0,254}$`)
	for _, name := range []string{
		"", "a", "Z9", "con", "nul.txt", "a..b", "release-v2.", "_a", "-a", ".a",
		"a b", "a/b", "é", "aé", "a\n", "a_b-c.d", strings.Repeat("a", 255),
		strings.Repeat("a", 256), "a" + strings.Repeat("-", 254),
	} {
		if got, want := chatcliName(name), rule.MatchString(name); got != want {
			t.Errorf("chatcliName(%q) = %v, ChatCLI's rule says %v", name, got, want)
		}
	}
}
