package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/acpserver"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/repl"
)

// acpOptions are the flags of `chatcli acp`.
type acpOptions struct {
	f        *factory
	Provider string
	Model    string
}

const acpLong = `Serve chatcli conversations to an editor over the Agent Client Protocol
(ACP, protocol version 1) on stdin/stdout. The editor starts this command
and speaks JSON-RPC to it; stdout carries protocol messages only, notices
go to stderr. The command ends when stdin closes.

Each editor thread is one conversation with the REPL's provider, store and
journal. Loading a thread by a chatcli session name (session/load) binds
that session and replays its history; a thread not bound to a session is
mirrored to mcp-<id> after every turn (CHATCLI_MCP_SESSION_AUTOSAVE=off
turns that off; unset, it follows CHATCLI_SESSION_AUTOSAVE). Slash commands
typed in the editor (/session attach NAME, /compact, /rewind, /help …) act
on that thread only; destructive ones need --yes. In agent and coder modes
(/agent, /coder) each file write and command is asked of the editor
(session/request_permission) unless CHATCLI_AGENT_AUTO_EXEC=true.

Zed (settings.json):

  "agent_servers": {
    "chatcli": {
      "type": "custom",
      "command": "/absolute/path/to/chatcli",
      "args": ["acp"],
      "env": { "OPENAI_API_KEY": "sk-..." }
    }
  }

A thread's cwd (session/new) is its workspace: the tools work there.`

// newACPCmd builds `chatcli acp`. runF, when not nil, replaces the run
// function (tests of flag parsing).
func newACPCmd(f *factory, runF func(*acpOptions) error) *cobra.Command {
	o := &acpOptions{f: f}
	return &cobra.Command{
		Use:   "acp",
		Short: "Serve conversations to editors (Agent Client Protocol, stdio)",
		Long:  acpLong,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Provider, o.Model = serverFlags(cmd)
			if runF != nil {
				return runF(o)
			}
			return acpRun(cmd.Context(), o)
		},
	}
}

// acpRun serves ACP until stdin closes; the retention pass runs as at REPL
// start, and every engine's markers are released by factory.close.
func acpRun(ctx context.Context, o *acpOptions) error {
	c, err := o.f.config(o.Provider, o.Model)
	if err != nil {
		return err
	}
	if _, err := o.f.provider(c); err != nil { // a missing key fails now, not at session/new
		return err
	}
	s := o.f.streams
	defer protectStdout(s)() // stdout carries protocol messages only
	defer serverStart(ctx, o.f, c)()
	wd, _ := os.Getwd()
	srv := acpserver.New(acpserver.Options{
		NewEngine: func(cwd string) (*conversation.Engine, error) { return o.f.engineIn(c, cwd) },
		Folders:   func() map[string]string { return recordedFolders(s, o.f.lang(), c.Home) },
		Config:    &c,
		Mirror:    acpMirror(c),
		Notify:    func(line string) { o.f.note(render.Visible(line)) },
		Lang:      o.f.lang(),
		Version:   version,
		WorkDir:   wd,
	})
	// Writes and commands of agent and coder modes are asked of the
	// editor (session/request_permission) instead of a terminal, worded
	// in the REPL's language.
	o.f.permit = repl.NewPermit(srv.Ask, s.Err)
	o.f.permit.SetLang(o.f.lang())
	acpServing()
	return srv.Serve(ctx, s.In, s.Out)
}

// acpServing is a seam for tests: called just before the server starts
// reading requests, with stdout already protected.
var acpServing = func() {}

// acpMirror says whether unbound ACP sessions are mirrored to mcp-<id>:
// CHATCLI_MCP_SESSION_AUTOSAVE, which follows CHATCLI_SESSION_AUTOSAVE
// when unset.
func acpMirror(c config.Config) bool { return c.MCPAutosave }
