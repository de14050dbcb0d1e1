package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/mcpserver"
)

// exitWait is how long a server process may take to exit once its stdin
// is closed; longer is a hang at exit.
const exitWait = 10 * time.Second

// surfaceEnv is the environment of a server process: a minimal one, then
// env.
func surfaceEnv(t *testing.T, env []string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
}

// mcpProc is a `chatcli mcp-server` process driven by the Go SDK's client
// over its stdin/stdout.
type mcpProc struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stderr bytes.Buffer
	closed bool
}

// startMCP starts `chatcli mcp-server` with env and connects the Go SDK's
// client to it; the process is closed at cleanup if the test did not.
func startMCP(t *testing.T, env []string) *mcpProc {
	t.Helper()
	p := &mcpProc{cmd: exec.Command(binary, "mcp-server")}
	p.cmd.Env = surfaceEnv(t, env)
	p.cmd.Stderr = &p.stderr
	var err error
	p.cs, err = mcp.NewClient(&mcp.Implementation{Name: "chatcli-e2e", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: p.cmd, TerminateDuration: exitWait}, nil)
	if err != nil {
		t.Fatalf("mcp-server: connect: %v", err)
	}
	t.Cleanup(func() {
		if !p.closed {
			p.cs.Close()
		}
	})
	return p
}

// chat calls the chat tool; a protocol or tool error is returned with the
// tool's text.
func (p *mcpProc) chat(ctx context.Context, prompt, session string) (mcpserver.ChatOutput, error) {
	var out mcpserver.ChatOutput
	args := map[string]any{"prompt": prompt}
	if session != "" {
		args["session"] = session
	}
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: "chat", Arguments: args})
	if err != nil {
		return out, err
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return out, errors.New(b.String())
	}
	data, _ := json.Marshal(res.StructuredContent)
	return out, json.Unmarshal(data, &out)
}

// close closes the server's stdin and waits for it to exit: it must exit
// with status 0 within exitWait. It returns the server's stderr.
func (p *mcpProc) close(t *testing.T) string {
	t.Helper()
	stderr, err := p.shutdown()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return stderr
}

// shutdown is close for other goroutines than the test's: it returns an
// error when the exit failed or took longer than exitWait.
func (p *mcpProc) shutdown() (string, error) {
	p.closed = true
	start := time.Now()
	err := p.cs.Close()
	if took := time.Since(start); err != nil || took > exitWait {
		return p.stderr.String(), fmt.Errorf("mcp-server exit after %v: %v", took.Round(time.Millisecond), err)
	}
	return p.stderr.String(), nil
}

// acpProc is a `chatcli acp` process driven by the acp-go-sdk's client
// side connection over its stdin/stdout.
type acpProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	conn   *acp.ClientSideConnection
	client *acpRecorder
	stderr bytes.Buffer
}

// startACP starts `chatcli acp` with env and initializes the protocol.
func startACP(t *testing.T, env []string) *acpProc {
	t.Helper()
	p := &acpProc{cmd: exec.Command(binary, "acp"), client: &acpRecorder{}}
	p.cmd.Env = surfaceEnv(t, env)
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	p.conn = acp.NewClientSideConnection(p.client, p.stdin, stdout)
	// The connection's own diagnostics (a closed peer) are not the test's.
	p.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := p.conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatalf("acp initialize: %v\n%s", err, p.stderr.String())
	}
	return p
}

// close closes the server's stdin: it must exit with status 0 within
// exitWait. It returns the server's stderr.
func (p *acpProc) close(t *testing.T) string {
	t.Helper()
	stderr, err := p.shutdown()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return stderr
}

// shutdown is close for other goroutines than the test's.
func (p *acpProc) shutdown() (string, error) {
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return p.stderr.String(), fmt.Errorf("acp exit: %w", err)
		}
		return p.stderr.String(), nil
	case <-time.After(exitWait):
		p.cmd.Process.Kill()
		<-done
		return p.stderr.String(), fmt.Errorf("acp did not exit within %v of stdin closing", exitWait)
	}
}

// turn sends one prompt on ACP session id; anything but end_turn is an
// error.
func (p *acpProc) turn(ctx context.Context, id acp.SessionId, prompt string) error {
	r, err := p.conn.Prompt(ctx, acp.PromptRequest{SessionId: id, Prompt: []acp.ContentBlock{acp.TextBlock(prompt)}})
	if err == nil && r.StopReason != acp.StopReasonEndTurn {
		err = fmt.Errorf("stop reason %q", r.StopReason)
	}
	return err
}

// acpRecorder is the editor side: it records every session/update and
// offers no file system, terminal or permission methods.
type acpRecorder struct {
	mu      sync.Mutex
	updates []acp.SessionNotification
}

var _ acp.Client = (*acpRecorder)(nil)

func (c *acpRecorder) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	c.mu.Unlock()
	return nil
}

// take returns and forgets the text updates so far as "user: text" and
// "agent: text" messages, consecutive chunks of one role joined.
func (c *acpRecorder) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	last := ""
	add := func(role, text string) {
		if role == last {
			out[len(out)-1] += text
			return
		}
		out, last = append(out, role+": "+text), role
	}
	for _, u := range c.updates {
		switch {
		case u.Update.UserMessageChunk != nil && u.Update.UserMessageChunk.Content.Text != nil:
			add("user", u.Update.UserMessageChunk.Content.Text.Text)
		case u.Update.AgentMessageChunk != nil && u.Update.AgentMessageChunk.Content.Text != nil:
			add("agent", u.Update.AgentMessageChunk.Content.Text.Text)
		}
	}
	c.updates = nil
	return out
}

var errNotOffered = errors.New("not offered by the test editor")

func (c *acpRecorder) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errNotOffered
}
func (c *acpRecorder) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errNotOffered
}
func (c *acpRecorder) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{}, errNotOffered
}
func (c *acpRecorder) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNotOffered
}
func (c *acpRecorder) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNotOffered
}
func (c *acpRecorder) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNotOffered
}
func (c *acpRecorder) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNotOffered
}
func (c *acpRecorder) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNotOffered
}
