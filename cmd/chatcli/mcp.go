package main

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/mcpserver"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/retention"
)

const mcpLong = `chatcli mcp-server serves chatcli's conversation engine and session store to
Model Context Protocol clients (Claude Desktop, IDEs, other AI tools) over
stdio: requests on stdin, responses on stdout, notices on stderr. It exits
when stdin closes. It uses the same provider, store and journal as the REPL,
so a conversation started here continues in the terminal and back.

Tools:
  chat            {prompt, session?} runs one turn and returns the reply
                  (structured: {reply, session, bound, messages,
                  notices?, warning?}). With session, the conversation is
                  bound to that session first (loaded, or created at this
                  turn); a turn another surface wrote to it meanwhile is
                  adopted, and notices say so (adoption, merge, or the
                  conflict fork NAME.conflict-… that keeps this side).
  manage_session  {action, name?, new_name?, query?, format?, yes?} with
                  the semantics of /session: save, load, list, delete (needs
                  yes), new, fork, rename, attach, detach, status, clear,
                  export (format md|jsonl), search (query).

While no session is bound, each conversation is mirrored after every turn to
the session mcp-<id> (CHATCLI_MCP_SESSION_AUTOSAVE=on|off; when unset it
follows CHATCLI_SESSION_AUTOSAVE; default on). Mirrors expire like autosaves
(CHATCLI_SESSION_TTL, CHATCLI_SESSION_AUTOSAVE_KEEP). Every other setting is
the REPL's: see chatcli --help.

Client configuration (claude_desktop_config.json, and most MCP clients):

  {
    "mcpServers": {
      "chatcli": {
        "command": "chatcli",
        "args": ["mcp-server"],
        "env": {
          "CHATCLI_HOME": "/home/you/.chatcli",
          "OPENAI_API_KEY": "sk-...",
          "OPENAI_MODEL": "gpt-4o-mini"
        }
      }
    }
  }`

// mcpOptions are the flags of `chatcli mcp-server`.
type mcpOptions struct {
	f               *factory
	Provider, Model string
	// protectStdout routes stray writes to os.Stdout to stderr while the
	// server runs; now is the clock of the mirror id.
	protectStdout bool
	now           func() time.Time
}

// newMCPCmd builds `chatcli mcp-server`. runF, when not nil, replaces the
// run function (tests of flag parsing).
func newMCPCmd(f *factory, runF func(*mcpOptions) error) *cobra.Command {
	o := &mcpOptions{f: f, protectStdout: true, now: time.Now}
	return &cobra.Command{
		Use:   "mcp-server",
		Short: "Serve chat and session tools to MCP clients over stdio",
		Long:  mcpLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Provider, o.Model = serverFlags(cmd)
			if runF != nil {
				return runF(o)
			}
			return mcpRun(cmd.Context(), o)
		},
	}
}

// mcpRun serves MCP on the factory's streams until stdin ends or ctx is
// cancelled, then keeps what is unsaved and lets the retention pass finish.
func mcpRun(ctx context.Context, o *mcpOptions) error {
	c, err := o.f.config(o.Provider, o.Model)
	if err != nil {
		return err
	}
	e, err := o.f.engine(c)
	if err != nil {
		return err
	}
	s := o.f.streams
	lang := o.f.lang()
	logf := func(line string) { o.f.note(render.Visible(line)) }
	if o.protectStdout {
		defer protectStdout(s)()
	}
	defer serverStart(ctx, o.f, c)()
	// The mirror is marked open like a bound session: no other process's
	// retention pass removes it while this server runs.
	marker := retention.NewMarker(c.Home)
	o.f.markers = append(o.f.markers, marker)
	srv := mcpserver.New(mcpserver.Options{Engine: e, Mirror: c.MCPAutosave, ID: mcpserver.NewID(o.now()), Version: version, Log: logf, Lang: lang,
		OnMirror: func(name string) {
			if err := marker.Set(name); err != nil {
				logf(lang.Sprintf("could not mark session %q open: %v", name, lang.Error(err, nil)))
			}
		}})
	p := e.Provider()
	logf(lang.Sprintf("chatcli %s MCP server on stdio · provider %s · model %s · store %s", version, p.Name(), p.Model(), c.Home))
	// At the end of stdin, requests already read are answered first: a turn
	// takes at most the request timeout.
	runErr := srv.Run(ctx, mcpserver.NewStdioTransport(s.In, s.Out, c.RequestTimeout+time.Minute))
	if errors.Is(runErr, io.EOF) {
		runErr = nil // stdin closed: the client is done
	}
	return errors.Join(runErr, srv.Close())
}

// protectStdout makes stdout the protocol channel of a stdio server: when
// s.Out is os.Stdout, anything else that writes to os.Stdout (a library's
// stray print) is sent to stderr instead of breaking the protocol, until
// the returned function restores os.Stdout.
func protectStdout(s *ioStreams) (restore func()) {
	out, ok := s.Out.(*os.File)
	if !ok || out != os.Stdout {
		return func() {}
	}
	os.Stdout = os.Stderr
	return func() { os.Stdout = out }
}
