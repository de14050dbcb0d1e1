package mcpserver

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/jsonrpcline/linetest"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
)

const initializeLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wire","version":"1"}}}`

// wire runs a server on pipes through NewStdioTransport, as `chatcli
// mcp-server` runs on stdio, initialized; done receives Run's result.
func wire(t *testing.T, p provider.Provider) (c *linetest.Conn, done chan error) {
	f := &fixture{t: t, home: t.TempDir()}
	f.store = f.openStore()
	srv := New(Options{Engine: f.engine(p), Mirror: true, ID: testID})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done = make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- srv.Run(ctx, NewStdioTransport(inR, outW, 5*time.Second))
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); cancel() })
	c = linetest.NewConn(inW, outR)
	c.Send(t, initializeLine)
	if r, _ := c.Until(t, `"init"`); r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	c.Send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c, done
}

func ping(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` }

// mcpCases are the MCP server's own malformed or unusual lines, beyond
// linetest.Malformed: ids the SDK cannot hold are answered as sent
// (JSON-RPC 2.0 §5), MCP-level errors come from the SDK, and a response
// to no request is not answered (§5: a response is never answered).
func mcpCases() []linetest.Case {
	long := strings.Repeat("x", MaxLineBytes)
	return []linetest.Case{
		linetest.NewCase("fractional id", ping("1.5"), linetest.Result("1.5")),
		linetest.NewCase("30-digit id", ping("123456789012345678901234567890"), linetest.Result("123456789012345678901234567890")),
		linetest.NewCase("exponent id", ping("1e400"), linetest.Result("1e400")),
		linetest.NewCase("negative zero id", ping("-0"), linetest.Result("-0")),
		linetest.NewCase("escaped string id", ping(`"\u0041b"`), linetest.Result(`"\u0041b"`)),
		linetest.NewCase("empty string id", ping(`""`), linetest.Result(`""`)),
		linetest.NewCase("carriage return", ping("130")+"\r", linetest.Result("130")),
		linetest.NewCase("unknown method", `{"jsonrpc":"2.0","id":131,"method":"no/such"}`, linetest.Failure("131", -32601)),
		linetest.NewCase("unknown tool", `{"jsonrpc":"2.0","id":132,"method":"tools/call","params":{"name":"nope"}}`, linetest.Failure("132", linetest.AnyError)),
		linetest.NewCase("params an array", `{"jsonrpc":"2.0","id":133,"method":"tools/call","params":[]}`, linetest.Failure("133", linetest.AnyError)),
		linetest.NewCase("chat prompt a number", `{"jsonrpc":"2.0","id":134,"method":"tools/call","params":{"name":"chat","arguments":{"prompt":5}}}`, linetest.Result("134")),
		linetest.NewCase("unknown resource", `{"jsonrpc":"2.0","id":135,"method":"resources/read","params":{"uri":"x:y"}}`, linetest.Failure("135", linetest.AnyError)),
		linetest.NewCase("stray response", `{"jsonrpc":"2.0","id":999,"result":{}}`, linetest.Want{}),
		linetest.NewCase("over-long line with an id", `{"jsonrpc":"2.0","id":136,"method":"ping","params":{"x":"`+long+`"}}`,
			linetest.Failure("136", -32600)),
		linetest.NewCase("over-long line without an id", long+"y", linetest.Failure("null", -32600)),
	}
}

func TestMalformedLinesAreAnsweredAndTheServerGoesOn(t *testing.T) {
	c, _ := wire(t, offline.New(""))
	cases := append(linetest.Malformed(), mcpCases()...)
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	c.Run(t, cases, ping)
}

// slowProvider answers every turn after wait, through the chat-completions
// wire format.
func slowProvider(t *testing.T, wait time.Duration) provider.Provider {
	srv := slowServer(t, wait, 0)
	p, err := openai.New(openai.Config{APIKey: "k", Model: "m", BaseURL: srv.URL + "/v1", Timeout: 10 * time.Second, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func chatLine(id, prompt string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"chat","arguments":{"prompt":"` + prompt + `"}}}`
}

func TestReusedIDsInFlightAreAllAnsweredAndEOFDrains(t *testing.T) {
	c, done := wire(t, slowProvider(t, 150*time.Millisecond))
	for _, p := range []string{"a", "b", "c"} {
		c.Send(t, chatLine("7", p))
	}
	c.Send(t, ping("7"))
	c.In.Close()
	answered := 0
	for answered < 4 {
		l := c.Next(t, 5*time.Second)
		if r := l.Replies[0]; string(r.ID) != "7" || r.Error != nil {
			t.Fatalf("reply %+v", r)
		}
		answered++
	}
	last := time.Now() // the TypeScript SDK sends SIGTERM 2 s after closing stdin
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		if d := time.Since(last); d > 2*time.Second {
			t.Fatalf("the server took %v to exit after its last answer", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the server did not exit within 2 s of EOF once every request was answered")
	}
}

func TestABatchDropsNothingSentBeforeIt(t *testing.T) {
	c, _ := wire(t, slowProvider(t, 100*time.Millisecond))
	c.Send(t, chatLine(`"before"`, "first"))
	c.Send(t, `[`+ping("1")+`,`+ping("2")+`]`)
	c.Send(t, chatLine(`"after"`, "second"))
	var before, after, batch bool
	for !before || !after || !batch { // the two chats are served in either order
		l := c.Next(t, 10*time.Second)
		r := l.Replies[0]
		switch {
		case l.Batch && len(l.Replies) == 2 && string(r.ID) == "1" && r.Error.Code == -32600 && l.Replies[1].Error.Code == -32600:
			batch = true
		case !l.Batch && string(r.ID) == `"before"` && r.Error == nil && strings.Contains(string(r.Result), "one two three"):
			before = true
		case !l.Batch && string(r.ID) == `"after"` && r.Error == nil && strings.Contains(string(r.Result), "one two three"):
			after = true
		default:
			t.Fatalf("unexpected reply %+v", l)
		}
	}
}

func TestACancellationNamesTheRequestByTheClientsID(t *testing.T) {
	c, _ := wire(t, slowProvider(t, 8*time.Second))
	start := time.Now()
	c.Send(t, chatLine(`"slow"`, "wait"))
	time.Sleep(200 * time.Millisecond)
	c.Send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"user"}}`)
	got, _ := c.Until(t, `"slow"`)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the cancelled turn ran to its end: answered after %v", d)
	}
	if got.Error == nil && !strings.Contains(string(got.Result), `"isError":true`) {
		t.Fatalf("a cancelled turn answered as a success: %s", got.Result)
	}
	c.Send(t, ping(`"next"`))
	c.Until(t, `"next"`)
}
