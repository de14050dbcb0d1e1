package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestHelpFlagsArePortugueseWhole: every flag line and command summary
// that the help of chatcli, chatcli session …, chatcli storage,
// chatcli storage prune and chatcli config … shows has its Portuguese
// text (cobra's own help and completion commands aside), and their
// Portuguese help shows none of the English ones, pflag's "(default N)"
// included.
func TestHelpFlagsArePortugueseWhole(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	root := newRootCmd(&factory{streams: &ioStreams{}, getenv: func(string) string { return "" }}, nil)
	covered := map[string]bool{"chatcli": true, "chatcli session": true, "chatcli storage": true,
		"chatcli storage prune": true, "chatcli config": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		parent := ""
		if c.HasParent() {
			parent = c.Parent().CommandPath()
		}
		if covered[path] || parent == "chatcli session" || parent == "chatcli config" {
			c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
				if fl.Name != "help" && pt.Help(fl.Usage) == fl.Usage {
					t.Errorf("%s --%s: no Portuguese for %q", path, fl.Name, fl.Usage)
				}
			})
			for _, sub := range c.Commands() {
				if pt.Help(sub.Short) == sub.Short {
					t.Errorf("%s: no Portuguese for %q", sub.CommandPath(), sub.Short)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for _, args := range [][]string{{"--help"}, {"session", "list", "--help"}, {"session", "search", "--help"}} {
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=pt-BR"}, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		for _, en := range []string{"version for chatcli", "continue the most recently", "with -p: print one JSON", "(default ", "at most N sessions"} {
			if strings.Contains(out, en) {
				t.Errorf("%v: %q in the Portuguese help:\n%s", args, en, out)
			}
		}
	}
}
