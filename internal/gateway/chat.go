package gateway

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Verbs are the /session verbs a channel may run, as in the REPL.
var Verbs = []string{"attach", "detach", "status", "save", "list", "new"}

// helpText is the answer to /help and /start, in lang.
func helpText(lang *i18n.Printer) string {
	return lang.Sprintf("Send a message to talk. Your conversation is kept in chatcli's session store.\n\n/session attach NAME: continue session NAME (created when missing), the same one the terminal and IDEs use\n/session detach: stop writing to it, keep the conversation\n/session status: which session this chat is bound to\n/session save NAME: save this conversation as NAME and bind to it (--yes replaces another)\n/session list: the saved sessions\n/session new: start an empty conversation\n/hub join NAME: see live the turns of the terminals and chats in hub thread NAME (/hub leave, /hub)\n\nDeleting a session is not possible from a chat: use chatcli session delete NAME in a terminal.")
}

// command runs one chat command for c and returns the answer.
func (g *Gateway) command(ctx context.Context, c *conv, line string) string {
	lang := g.o.Lang
	f := strings.Fields(line)
	name, _, _ := strings.Cut(f[0], "@") // Telegram's /cmd@bot in groups
	switch {
	case name == "/help" || name == "/start" || (name == "/session" && len(f) == 1):
		return helpText(lang)
	case name == "/session" && f[1] == "delete":
		return lang.Sprintf("Deleting a session is not possible from a chat; use `chatcli session delete NAME` in a terminal.")
	case name != "/session" || !slices.Contains(Verbs, f[1]):
		return lang.Sprintf("%s is not available in a chat; /help lists what is.", strings.Join(f[:min(2, len(f))], " "))
	}
	verb := f[1]
	if verb != "list" && verb != "status" {
		g.mirror(c) // what the conversation holds is kept before it changes
	}
	var out bytes.Buffer
	env := &command.Env{Engine: c.e, Out: &out, Err: &out, Lang: lang}
	err := command.Dispatch(ctx, env, strings.Join(append([]string{"/session"}, f[1:]...), " "))
	if err != nil {
		return strings.TrimSpace(out.String() + "\n" + lang.Sprintf("error: %s", command.ErrorLineIn(lang, err)))
	}
	wasBound := c.ps.Bound
	c.ps.Bound = c.e.Bound()
	if verb == "new" || (verb == "detach" && wasBound != "") {
		c.ps.Mirror = g.nextMirror(c.p)
	}
	if err := g.save(c); err != nil {
		lang.Fprintf(&out, "\nwarning: %s", command.ErrorLineIn(lang, err))
	}
	return strings.TrimSpace(out.String())
}
