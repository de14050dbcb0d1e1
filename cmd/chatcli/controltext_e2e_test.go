package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/session"
)

// Escape sequences a model or a file can hold: OSC 0 (window title), CSI
// 2J (clear screen), OSC 8 (hyperlink), C1 CSI (U+009B), and a
// right-to-left override closed by a pop (Unicode TR #9; Trojan Source).
const (
	oscTitle = "\x1b]0;pwned\x07"
	csiClear = "\x1b[2J"
	osc8     = "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\"
	c1CSI    = "\u009b31m"
	bidiRLO  = "\u202elive\u202c"
	hostile  = oscTitle + csiClear + osc8 + c1CSI + bidiRLO
)

// controlTextStore writes session "hostile" with escape sequences in its title,
// a user message, an assistant message, a tool call and a tool result.
func controlTextStore(t *testing.T, home string) *session.Session {
	t.Helper()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	s := &session.Session{Title: "title " + hostile, History: []message.Message{
		{Role: message.RoleUser, Content: "question " + hostile},
		{Role: message.RoleAssistant, Content: "marker answer " + hostile,
			ToolCalls: []message.ToolCall{{ID: "c1", Type: "function", Name: "read_file", Arguments: `{"path":"` + csiClear + `"}`}}},
		{Role: message.RoleTool, ToolCallID: "c1", Content: "tool output " + hostile},
		{Role: message.RoleAssistant, Content: "done"},
	}}
	if err := st.Save("hostile", s); err != nil {
		t.Fatal(err)
	}
	return s
}

// noControls fails when out holds ESC, BEL, a C1 control or an explicit
// bidi control, and checks that the sequences were made visible instead.
func noControls(t *testing.T, what, out string, wantVisible ...string) {
	t.Helper()
	for _, r := range out {
		if r == 0x1b || r == 0x07 || (r >= 0x80 && r < 0xa0) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("%s prints control character %U raw:\n%q", what, r, out)
		}
	}
	for _, w := range wantVisible {
		if !strings.Contains(out, w) {
			t.Fatalf("%s does not show %q:\n%q", what, w, out)
		}
	}
}

func TestUntrustedTextNeverReachesTheTerminalRaw(t *testing.T) {
	home := t.TempDir()
	stored := controlTextStore(t, home)
	env := []string{"CHATCLI_HOME=" + home}
	visible := []string{"^[]0;pwned^G", "^[[2J", "^[]8;;http://evil.example/^[\\click", "<U+009B>31m", "<U+202E>live<U+202C>"}
	for _, args := range [][]string{
		{"session", "list"},
		{"session", "show", "hostile"},
		{"session", "search", "marker"},
		{"session", "export", "hostile", "md", "-"},
	} {
		out, errOut, code := run(t, env, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		if args[1] == "export" { // a document to a pipe: exact
			if !strings.Contains(out, "tool output "+hostile) {
				t.Fatalf("the Markdown export to a pipe is not exact:\n%q", out)
			}
			continue
		}
		noControls(t, strings.Join(args, " "), out+errOut, visible[:2]...)
	}
	out, _, _ := run(t, env, "", "session", "show", "hostile")
	noControls(t, "session show", out, append(visible, "tool output ^[]0;", "read_file({\"path\":\"^[[2J\"})")...)

	// The REPL's own printers: a reply, show, list, search, the replay of
	// a load and the transcript verbs.
	out, errOut, code := run(t, env, "say "+hostile+"\n/session show hostile\n/session list\n/session search marker\n"+
		"/session load hostile\n/session transcript show 1\n/session transcript search marker\n")
	if code != 0 {
		t.Fatalf("REPL: exit %d\n%s", code, errOut)
	}
	noControls(t, "the REPL", out+errOut, visible...)
	out, errOut, _ = run(t, env, "", "-p", "echo "+hostile)
	noControls(t, "-p", out+errOut, visible[:2]...)

	// --json stays exact.
	out, _, code = run(t, env, "", "session", "show", "hostile", "--json")
	var doc struct {
		Title       string            `json:"title"`
		ChatHistory []message.Message `json:"chat_history"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("--json: exit %d, %v", code, err)
	}
	if doc.Title != stored.Title || doc.ChatHistory[2].Content != stored.History[2].Content || doc.ChatHistory[1].ToolCalls[0].Arguments != stored.History[1].ToolCalls[0].Arguments {
		t.Fatalf("--json is not exact: %q / %q", doc.Title, doc.ChatHistory[2].Content)
	}
}

// TestATitleCannotRenameTheTerminalWindow runs the REPL on a real terminal
// (tmux) and shows, lists and searches the hostile session: the pane's
// title, which OSC 0 would set, stays as it was, and the screen is not
// cleared.
func TestATitleCannotRenameTheTerminalWindow(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-hostile-%d", os.Getpid())}
	home := s.start(120, 40)
	s.waitFor("offline>")
	controlTextStore(t, home)
	before := s.run("display-message", "-p", "-t", s.name, "#{pane_title}")
	for _, line := range []string{"/session list", "/session show hostile", "/session search marker"} {
		s.run("send-keys", "-t", s.name, line, "Enter")
	}
	s.waitFor("marker answer ^[]0;pwned^G")
	if after := s.run("display-message", "-p", "-t", s.name, "#{pane_title}"); after != before || strings.Contains(after, "pwned") {
		t.Fatalf("the pane title went from %q to %q", before, after)
	}
	if scr := s.screen(); !strings.Contains(scr, "/session list") {
		t.Fatalf("the screen was cleared:\n%s", scr)
	}
}

// TestAServersErrorCannotDriveTheTerminal: an OpenAI-compatible server
// whose error message holds escape sequences; chatcli's error line shows
// them made visible.
func TestAServersErrorCannotDriveTheTerminal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		msg, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "bad " + hostile, "type": "invalid_request_error"}})
		w.Write(msg)
	}))
	defer srv.Close()
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m", "OPENAI_API_KEY=k"}
	out, errOut, code := run(t, env, "", "-p", "hi")
	if code == 0 {
		t.Fatalf("a failing server: exit 0\n%s", out)
	}
	noControls(t, "the error line", out+errOut, "bad ^[]0;pwned^G")
}
