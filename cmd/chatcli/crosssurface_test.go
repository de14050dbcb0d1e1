package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/seal"
)

// TestCrossSurfaceContinuity binds one session S from the three surfaces at
// once, each a real process on the same store with the offline provider:
// the REPL in script mode, `chatcli mcp-server` driven by the Go MCP SDK's
// client, and `chatcli acp` driven by the acp-go-sdk's client. The two
// servers stay up the whole time. Each turn is taken on another surface
// than the one before, and each must see every earlier turn: the offline
// reply "#N" counts the user messages of the request it answers.
// The sealed run does the same on an encrypted store.
func TestCrossSurfaceContinuity(t *testing.T) {
	t.Run("plain", func(t *testing.T) { crossSurface(t, nil, seal.Key{}) })
	key, err := seal.ParseKey(b64Key(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("sealed", func(t *testing.T) { crossSurface(t, []string{"CHATCLI_ENCRYPTION_KEY=" + b64Key(1)}, key) })
}

// crossSurface is the continuity run with env added to every process's
// environment and key opening the journals.
func crossSurface(t *testing.T, extra []string, key seal.Key) {
	home := t.TempDir()
	env := append([]string{"CHATCLI_HOME=" + home}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	reply := func(n int, prompt string) string { return fmt.Sprintf("[offline] reply #%d to: %s", n, prompt) }

	repl := func(n int, prompt string) {
		t.Helper()
		out, errOut, code := run(t, env, "/session attach S\n"+prompt+"\n")
		if code != 0 || !strings.Contains(out, reply(n, prompt)) {
			t.Fatalf("REPL %q: exit %d, want %q in\n%s\n%s", prompt, code, reply(n, prompt), out, errOut)
		}
	}
	m := startMCP(t, env)
	var lastMCP int
	mcpChat := func(n int, prompt string) {
		t.Helper()
		out, err := m.chat(ctx, prompt, "S")
		if err != nil || out.Reply != reply(n, prompt) || out.Session != "S" || !out.Bound || out.Warning != "" {
			t.Fatalf("MCP %q: %+v, %v; want reply %q\n%s", prompt, out, err, reply(n, prompt), m.stderr.String())
		}
		lastMCP = out.Messages
	}
	a := startACP(t, env)
	acpPrompt := func(n int, prompt string) {
		t.Helper()
		r, err := a.conn.Prompt(ctx, acp.PromptRequest{SessionId: "S", Prompt: []acp.ContentBlock{acp.TextBlock(prompt)}})
		got := a.client.take()
		if err != nil || r.StopReason != acp.StopReasonEndTurn || !slices.Equal(got, []string{"agent: " + reply(n, prompt)}) {
			t.Fatalf("ACP %q: stop %q, err %v, updates %q; want reply %q", prompt, r.StopReason, err, got, reply(n, prompt))
		}
	}

	repl(1, "from repl")
	mcpChat(2, "from mcp")
	if _, err := a.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: "S", Cwd: "/tmp", McpServers: []acp.McpServer{}}); err != nil {
		t.Fatalf("session/load S: %v\n%s", err, a.stderr.String())
	}
	if got, want := a.client.take(), []string{"user: from repl", "agent: " + reply(1, "from repl"),
		"user: from mcp", "agent: " + reply(2, "from mcp")}; !slices.Equal(got, want) {
		t.Fatalf("session/load S replayed\n%q\nwant\n%q", got, want)
	}
	acpPrompt(3, "from acp")
	mcpChat(4, "mcp again")
	acpPrompt(5, "acp again")
	repl(6, "repl again")
	mcpChat(7, "mcp last")

	mErr, aErr := m.close(t), a.close(t)
	for _, e := range []string{mErr, aErr} {
		if strings.Contains(e, "conflict") || strings.Contains(e, "warning") || strings.Contains(e, "error") {
			t.Fatalf("a server reported a conflict or a failure:\n%s", e)
		}
	}

	show, errOut, code := run(t, env, "", "session", "show", "S", "--json")
	var d doc
	if code != 0 || json.Unmarshal([]byte(show), &d) != nil {
		t.Fatalf("session show S: exit %d\n%s\n%s", code, show, errOut)
	}
	var got []string
	for _, msg := range d.ChatHistory {
		got = append(got, msg.Role+": "+msg.Content)
	}
	var want []string
	for i, p := range []string{"from repl", "from mcp", "from acp", "mcp again", "acp again", "repl again", "mcp last"} {
		want = append(want, "user: "+p, "assistant: "+reply(i+1, p))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("S holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if lastMCP != len(d.ChatHistory) {
		t.Fatalf("the last MCP turn reported %d messages, S holds %d", lastMCP, len(d.ChatHistory))
	}
	list, _, _ := run(t, env, "", "session", "list", "--json")
	var heads []struct{ Name string }
	if json.Unmarshal([]byte(list), &heads) != nil || len(heads) != 1 || heads[0].Name != "S" {
		t.Fatalf("sessions besides S (a fork, a mirror or an autosave):\n%s", list)
	}
	if journalled := checkSealedJournals(t, home, key); len(journalled) != 7 {
		t.Fatalf("the journals hold %d prompts, want 7: %v", len(journalled), journalled)
	}
}
