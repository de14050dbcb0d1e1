package acpserver

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/jsonrpcline/linetest"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/session"
)

// wire serves ACP on pipes, as `chatcli acp` does on stdio, and returns
// the client's end of them, the server's notices (to read once done
// received Serve's result) and done.
func wire(t *testing.T, p provider.Provider) (*linetest.Conn, *strings.Builder, chan error) {
	srv, _, notices := newServer(t, p, true)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return linetest.NewConn(inW, outR), notices, done
}

func request(id, method, params string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
}

func initialize(t *testing.T, c *linetest.Conn) {
	c.Send(t, request(`"init"`, "initialize", `{"protocolVersion":1}`))
	if r, _ := c.Until(t, `"init"`); r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
}

func list(id string) string { return request(id, "session/list", `{}`) }

// acpCases are the ACP server's own malformed or unusual lines, beyond
// linetest.Malformed.
func acpCases() []linetest.Case {
	long := strings.Repeat("x", MaxLineBytes)
	pasted := strings.Repeat("y", 11<<20)
	return []linetest.Case{
		linetest.NewCase("fractional id", list("1.5"), linetest.Result("1.5")),
		linetest.NewCase("30-digit id", list("123456789012345678901234567890"), linetest.Result("123456789012345678901234567890")),
		linetest.NewCase("negative id", list("-7"), linetest.Result("-7")),
		linetest.NewCase("carriage return", list("201")+"\r", linetest.Result("201")),
		linetest.NewCase("unknown method", request("202", "no/such", `{}`), linetest.Failure("202", -32601)),
		linetest.NewCase("unknown extension method", request("203", "_chatcli/nothing", `{}`), linetest.Failure("203", -32601)),
		linetest.NewCase("prompt to no session", request("204", "session/prompt", `{"sessionId":"nope","prompt":[{"type":"text","text":"x"}]}`), linetest.Failure("204", -32002)),
		linetest.NewCase("prompt with a number for a session", request("205", "session/prompt", `{"sessionId":5,"prompt":[]}`), linetest.Failure("205", linetest.AnyError)),
		linetest.NewCase("new session with a relative cwd", request("206", "session/new", `{"cwd":"rel","mcpServers":[]}`), linetest.Failure("206", -32602)),
		linetest.NewCase("new session with params an array", request("207", "session/new", `[]`), linetest.Failure("207", linetest.AnyError)),
		linetest.NewCase("load of a new session", request("208", "session/load", `{"sessionId":"nope","cwd":"/tmp","mcpServers":[]}`), linetest.Result("208")),
		linetest.NewCase("list with a bad cursor", request("209", "session/list", `{"cursor":"zzz"}`), linetest.Failure("209", linetest.AnyError)),
		linetest.NewCase("stray response", `{"jsonrpc":"2.0","id":999,"result":{}}`, linetest.Want{}),
		linetest.NewCase("cancel of no session", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}`, linetest.Want{}),
		linetest.NewCase("over-long line with an id", request("210", "session/prompt", `{"sessionId":"s","prompt":[{"type":"text","text":"`+long+`"}]}`),
			linetest.Failure("210", -32600)),
		linetest.NewCase("over-long line without an id", long+"z", linetest.Failure("null", -32600)),
		linetest.NewCase("a pasted 11 MB file", request("211", "session/prompt", `{"sessionId":"s1","prompt":[{"type":"text","text":"`+pasted+`"}]}`),
			linetest.Failure("211", -32600)),
	}
}

func TestMalformedLinesAreAnsweredAndTheServerGoesOn(t *testing.T) {
	c, notices, done := wire(t, nil)
	initialize(t, c)
	cases := append(linetest.Malformed(), acpCases()...)
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	c.Run(t, cases, list)
	c.In.Close()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for _, l := range strings.Split(notices.String(), "\n") {
		if len(l) > 1024 || strings.ContainsAny(l, "\x1b\x01") {
			t.Fatalf("a notice holds a refused line, not an excerpt of it: %.300q… (%d bytes)", l, len(l))
		}
	}
}

func TestSessionMethodsBeforeInitializeAreRefused(t *testing.T) {
	c, _, _ := wire(t, nil)
	for _, line := range []string{
		request("1", "session/new", `{"cwd":"/tmp","mcpServers":[]}`),
		request("2", "session/prompt", `{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}`),
		request("3", "session/load", `{"sessionId":"x","cwd":"/tmp","mcpServers":[]}`),
		list("4"),
		request("5", "authenticate", `{"methodId":"x"}`),
	} {
		c.Send(t, line)
		l := c.Next(t, 5*time.Second)
		if r := l.Replies[0]; r.Error == nil || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "before initialize") {
			t.Fatalf("%s before initialize: %+v %s", line, r.Error, r.Result)
		}
	}
	initialize(t, c)
	c.Send(t, request("6", "session/new", `{"cwd":"/tmp","mcpServers":[]}`))
	if r, _ := c.Until(t, "6"); r.Error != nil || !strings.Contains(string(r.Result), `"sessionId":"s1"`) {
		t.Fatalf("session/new after initialize: %+v %s", r.Error, r.Result)
	}
}

// TestEOFAnswersThePromptInFlightThenEnds: a prompt sent just before the
// client closes stdin is answered, and Serve then returns on its own (no
// wait for a client that is gone; the bound is loose for loaded machines).
func TestEOFAnswersThePromptInFlightThenEnds(t *testing.T) {
	c, _, done := wire(t, chatServer(t, false))
	initialize(t, c)
	c.Send(t, request("1", "session/new", `{"cwd":"/tmp","mcpServers":[]}`))
	c.Until(t, "1")
	c.Send(t, request("2", "session/prompt", `{"sessionId":"s1","prompt":[{"type":"text","text":"last words"}]}`))
	c.In.Close()
	r, _ := c.Until(t, "2")
	if r.Error != nil || !strings.Contains(string(r.Result), `"end_turn"`) {
		t.Fatalf("the prompt sent before EOF: %+v %s", r.Error, r.Result)
	}
	answered := time.Now()
	select {
	case <-done:
		t.Logf("Serve returned %v after the answer", time.Since(answered))
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return after EOF")
	}
}

// TestLoadReplaysAHugeMessageInChunks loads a session whose reply and tool
// result are 12 MiB each through the SDK's own client, which reads lines
// of at most 10 MiB: the reply must arrive whole, in chunks, the tool
// result shown cut.
func TestLoadReplaysAHugeMessageInChunks(t *testing.T) {
	h := start(t, nil, false)
	huge := strings.Repeat("ab\x01dé", 2<<20)
	tool := strings.Repeat("t", 12<<20)
	s := &session.Session{History: []message.Message{
		{Role: message.RoleUser, Content: "give me everything"},
		{Role: message.RoleAssistant, Content: huge, ToolCalls: []message.ToolCall{{ID: "c1", Type: "function", Name: "read_file", Arguments: `{"path":"x"}`}}},
		{Role: message.RoleTool, ToolCallID: "c1", Content: tool},
	}}
	if err := h.store.Save("big", s); err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := h.conn.LoadSession(c, acp.LoadSessionRequest{SessionId: "big", Cwd: "/tmp", McpServers: []acp.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	updates := h.client.take()
	got, chunks := agentText(updates, "big")
	if got != huge || chunks < len(huge)/ChunkBytes {
		t.Fatalf("replayed %d bytes in %d chunks, want %d bytes in chunks of at most %d", len(got), chunks, len(huge), ChunkBytes)
	}
	var shownTool string
	for _, u := range updates {
		if tc := u.Update.ToolCallUpdate; tc != nil && len(tc.Content) == 1 && tc.Content[0].Content != nil {
			shownTool = tc.Content[0].Content.Content.Text.Text
		}
	}
	if !strings.HasPrefix(shownTool, tool[:ChunkBytes-1]) || !strings.Contains(shownTool, "12582912 bytes in all") {
		t.Fatalf("the tool result is shown as %.80q… (%d bytes)", shownTool, len(shownTool))
	}
}
