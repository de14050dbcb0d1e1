package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// Defaults for the zero values of Options.
const (
	DefaultCommandTimeout = 2 * time.Minute
	DefaultOutputCapBytes = 32 << 10
)

// Options configures a Box.
type Options struct {
	// Root is the workspace root (the working directory at start); every
	// path is confined to it. Required; made absolute.
	Root string
	// Permit is asked before every write_file, edit_file and run_command
	// unless AutoExec is set or the user answered DecisionAlways for that
	// tool earlier. Its error (such as "input is not a terminal") refuses
	// the action and is passed on to the model. Nil with AutoExec off
	// refuses every change.
	Permit func(ctx context.Context, a Action) (Decision, error)
	// AutoExec skips Permit (--agent-auto-exec, CHATCLI_AGENT_AUTO_EXEC).
	AutoExec bool
	// CommandTimeout limits each run_command unless the call asks for
	// another; 0 means DefaultCommandTimeout.
	CommandTimeout time.Duration
	// OutputCap is how many bytes of a tool's output are kept (head and
	// tail, see doc.go); 0 means DefaultOutputCapBytes.
	OutputCap int
	// Hooks are told about file changes and commands (file checkpoints).
	Hooks Hooks
}

// Box runs the built-in tools of agent and coder modes. It implements
// conversation.Toolbox. It is safe for concurrent use.
type Box struct {
	opts     Options
	root     string   // Options.Root, absolute and clean
	realRoot string   // root with symlinks resolved
	fsRoot   *os.Root // the workspace opened with os.OpenRoot
	timeout  time.Duration
	capBytes int

	mu     sync.Mutex
	always map[string]bool // tools the user allowed for the life of the Box
}

// New returns a Box for o. It fails when o.Root is empty, is not a
// directory, or when a limit is negative.
func New(o Options) (*Box, error) {
	if o.Root == "" {
		return nil, errors.New("tools: no workspace root")
	}
	if o.CommandTimeout < 0 || o.OutputCap < 0 {
		return nil, fmt.Errorf("tools: negative limit (command timeout %v, output cap %d bytes)", o.CommandTimeout, o.OutputCap)
	}
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, fmt.Errorf("tools: workspace %s: %w", o.Root, err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("tools: workspace %s: %w", root, err)
	}
	fsRoot, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("tools: workspace %s: %w", root, err)
	}
	b := &Box{opts: o, root: root, realRoot: real, fsRoot: fsRoot,
		timeout: o.CommandTimeout, capBytes: o.OutputCap, always: map[string]bool{}}
	if b.timeout == 0 {
		b.timeout = DefaultCommandTimeout
	}
	if b.capBytes == 0 {
		b.capBytes = DefaultOutputCapBytes
	}
	return b, nil
}

// Close releases the workspace directory handle. Run must not be called
// after it.
func (b *Box) Close() error { return b.fsRoot.Close() }

// Root returns the workspace root, absolute.
func (b *Box) Root() string { return b.root }

// Tools lists the tools offered in mode: read_file, list_dir, search_files
// and run_command in "agent"; those plus write_file and edit_file in
// "coder"; none in any other mode. The slice is new on every call.
func (b *Box) Tools(mode string) []provider.Tool {
	var out []provider.Tool
	for _, s := range specs {
		if offered(s, mode) {
			t := s.tool
			secs := strconv.FormatFloat(b.timeout.Seconds(), 'f', -1, 64) + " seconds"
			t.Description = strings.ReplaceAll(t.Description, "{timeout}", secs)
			t.Parameters = bytes.ReplaceAll(t.Parameters, []byte("{timeout}"), []byte(secs))
			out = append(out, t)
		}
	}
	return out
}

func offered(s spec, mode string) bool {
	return mode == ModeCoder || mode == ModeAgent && !s.coderOnly
}

// Run executes one tool call in mode and returns the content of the tool
// message answering it. isError marks a failed call: unknown tool or one
// not offered in mode, bad arguments, a path outside the workspace, a
// refused permission, a failed hook, a non-zero exit status or a timeout;
// content then says what went wrong in words the model can act on. The
// content is valid UTF-8 and capped (see doc.go).
func (b *Box) Run(ctx context.Context, mode string, call message.ToolCall) (content string, isError bool) {
	for _, s := range specs {
		if s.tool.Name != call.Name {
			continue
		}
		if !offered(s, mode) {
			return fmt.Sprintf("error: tool %s is not available in %s mode", call.Name, modeName(mode)), true
		}
		out, err := s.run(b, ctx, []byte(call.Arguments))
		if !s.clipsItself {
			out = clip(out, b.capBytes)
		}
		if err != nil {
			msg := "error: " + message.ValidUTF8(err.Error())
			if out != "" {
				msg = out + "\n" + msg
			}
			return msg, true
		}
		return out, false
	}
	names := make([]string, 0, len(specs))
	for _, s := range specs {
		if offered(s, mode) {
			names = append(names, s.tool.Name)
		}
	}
	return fmt.Sprintf("error: unknown tool %q; the tools are: %s", call.Name, strings.Join(names, ", ")), true
}

func modeName(mode string) string {
	if mode == "" {
		return "chat"
	}
	return mode
}

// decode parses the JSON arguments of tool into v, refusing unknown fields
// and trailing data; empty arguments mean {}.
func decode(tool string, args []byte, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	if err == nil && d.More() {
		err = errors.New("data after the JSON object")
	}
	if err != nil {
		return fmt.Errorf("bad arguments for %s: %v; the arguments must be a JSON object matching the tool's parameters", tool, err)
	}
	return nil
}
