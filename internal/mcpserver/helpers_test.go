package mcpserver

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

const testID = "20261130-090000-abcd"

// fixture is a Server over a fresh store, connected to a real MCP client
// through the SDK's in-memory transports.
type fixture struct {
	t       *testing.T
	home    string
	store   *session.Store
	srv     *Server
	cs      *mcp.ClientSession
	mu      sync.Mutex
	logged  []string
	mirrors []string
}

type setup struct {
	provider provider.Provider
	noMirror bool
	toolbox  conversation.Toolbox // the server's engine's, when set
}

func newFixture(t *testing.T, s setup) *fixture {
	t.Helper()
	f := &fixture{t: t, home: t.TempDir()}
	f.store = f.openStore()
	if s.provider == nil {
		s.provider = offline.New("")
	}
	e := f.engine(s.provider)
	if s.toolbox != nil {
		e = conversation.New(conversation.Options{Store: f.openStore(), Provider: s.provider, JournalDir: filepath.Join(f.home, "transcripts"), Toolbox: s.toolbox})
	}
	f.srv = New(Options{Engine: e, Mirror: !s.noMirror, ID: testID, Version: "test",
		OnMirror: func(n string) { f.mirrors = append(f.mirrors, n) },
		Log: func(l string) {
			f.mu.Lock()
			f.logged = append(f.logged, l)
			f.mu.Unlock()
		}})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := f.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.cs, err = mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.cs.Close()
		ss.Wait()
	})
	return f
}

func (f *fixture) openStore() *session.Store {
	st, err := session.Open(filepath.Join(f.home, "sessions"))
	if err != nil {
		f.t.Fatal(err)
	}
	st.SetJournalDir(filepath.Join(f.home, "transcripts")) // as the product reads: file and journal tail
	return st
}

// engine builds an engine on the fixture's store, as another surface would.
func (f *fixture) engine(p provider.Provider) *conversation.Engine {
	return conversation.New(conversation.Options{Store: f.openStore(), Provider: p, JournalDir: filepath.Join(f.home, "transcripts")})
}

// call calls a tool and returns the result; a protocol error fails the test.
func (f *fixture) call(name string, args map[string]any) *mcp.CallToolResult {
	f.t.Helper()
	res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		f.t.Fatalf("%s %v: protocol error %v", name, args, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured content
// into out.
func (f *fixture) ok(name string, args map[string]any, out any) string {
	f.t.Helper()
	res := f.call(name, args)
	if res.IsError {
		f.t.Fatalf("%s %v: tool error %q", name, args, text(res))
	}
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, out); err != nil {
		f.t.Fatalf("%s %v: structured content %s: %v", name, args, data, err)
	}
	return text(res)
}

// fails calls a tool that must fail with a tool error holding every want.
func (f *fixture) fails(name string, args map[string]any, want ...string) {
	f.t.Helper()
	res := f.call(name, args)
	if !res.IsError {
		f.t.Fatalf("%s %v: want a tool error, got %q", name, args, text(res))
	}
	for _, w := range want {
		if !strings.Contains(text(res), w) {
			f.t.Fatalf("%s %v: error %q does not say %q", name, args, text(res), w)
		}
	}
}

func (f *fixture) chat(args map[string]any) ChatOutput {
	f.t.Helper()
	var out ChatOutput
	txt := f.ok("chat", args, &out)
	want := out.Reply
	for _, n := range out.Notices {
		want += "\n\nnote: " + n
	}
	if txt != want {
		f.t.Fatalf("text %q differs from the structured result %+v", txt, out)
	}
	return out
}

func (f *fixture) manage(args map[string]any) SessionOutput {
	f.t.Helper()
	var out SessionOutput
	f.ok("manage_session", args, &out)
	return out
}

// users lists a stored session's user prompts, comma-separated.
func (f *fixture) users(name string) string {
	f.t.Helper()
	s, err := f.store.Load(name)
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, m := range s.History {
		if m.Role == message.RoleUser {
			out = append(out, m.Content)
		}
	}
	return strings.Join(out, ",")
}

func (f *fixture) names() string {
	f.t.Helper()
	list, err := f.store.List()
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, h := range list {
		out = append(out, h.Name)
	}
	return strings.Join(out, ",")
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
