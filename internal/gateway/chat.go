package gateway

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/command"
)

// Verbs are the /session verbs a channel may run, as in the REPL.
var Verbs = []string{"attach", "detach", "status", "save", "list", "new"}

// Help is the answer to /help and /start.
const Help = "Send a message to talk. Your conversation is kept in chatcli's session store.\n\n" +
	"/session attach NAME: continue session NAME (created when missing), the same one the terminal and IDEs use\n" +
	"/session detach: stop writing to it, keep the conversation\n" +
	"/session status: which session this chat is bound to\n" +
	"/session save NAME: save this conversation as NAME and bind to it (--yes replaces another)\n" +
	"/session list: the saved sessions\n" +
	"/session new: start an empty conversation\n" +
	"/hub join NAME: see live the turns of the terminals and chats in hub thread NAME (/hub leave, /hub)\n\n" +
	"Deleting a session is not possible from a chat: use chatcli session delete NAME in a terminal."

// command runs one chat command for c and returns the answer.
func (g *Gateway) command(ctx context.Context, c *conv, line string) string {
	f := strings.Fields(line)
	name, _, _ := strings.Cut(f[0], "@") // Telegram's /cmd@bot in groups
	switch {
	case name == "/help" || name == "/start" || (name == "/session" && len(f) == 1):
		return Help
	case name == "/session" && f[1] == "delete":
		return "Deleting a session is not possible from a chat; use `chatcli session delete NAME` in a terminal."
	case name != "/session" || !slices.Contains(Verbs, f[1]):
		return fmt.Sprintf("%s is not available in a chat; /help lists what is.", strings.Join(f[:min(2, len(f))], " "))
	}
	verb := f[1]
	if verb != "list" && verb != "status" {
		g.mirror(c) // what the conversation holds is kept before it changes
	}
	var out bytes.Buffer
	env := &command.Env{Engine: c.e, Out: &out, Err: &out}
	err := command.Dispatch(ctx, env, strings.Join(append([]string{"/session"}, f[1:]...), " "))
	if err != nil {
		return strings.TrimSpace(out.String() + "\nerror: " + command.ErrorLine(err))
	}
	wasBound := c.ps.Bound
	c.ps.Bound = c.e.Bound()
	if verb == "new" || (verb == "detach" && wasBound != "") {
		c.ps.Mirror = g.nextMirror(c.p)
	}
	if err := g.save(c); err != nil {
		fmt.Fprintf(&out, "\nwarning: %s", command.ErrorLine(err))
	}
	return strings.TrimSpace(out.String())
}
