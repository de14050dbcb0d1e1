// Package mcpserver is chatcli's Model Context Protocol server: a thin
// adapter from MCP tool calls onto one conversation.Engine (the REPL's
// engine, same provider, store, journal and open-session markers) and the
// /session commands of package command. It speaks MCP through the official
// Go SDK (github.com/modelcontextprotocol/go-sdk); `chatcli mcp-server`
// runs it over stdio, where stdout is the protocol channel and every
// notice goes to stderr.
//
// # Tools
//
//   - chat {prompt, session?}: one turn through Engine.Turn. With session,
//     the conversation is first bound to it with /session attach semantics
//     (loaded when it exists, created at this turn when not), unless it is
//     bound to it already; a bound turn adopts a newer version another
//     surface wrote. The result's text is the reply; its structured
//     content is ChatOutput.
//   - manage_session {action, name?, new_name?, query?, format?, yes?}:
//     save, load, list, delete, new, fork, rename, attach, detach, status,
//     clear, export, search, with the semantics of the /session verbs of the
//     same name (command.RunSessionVerb). rename is `chatcli session rename`
//     (the bound session stays bound under its new name); clear keeps the
//     conversation (its mirror, or its bound session) and starts an empty
//     one; export returns the transcript (md or jsonl) as the result's text,
//     of the live conversation or of session name. delete needs yes (the
//     session goes to the trash); save over another session needs yes.
//     Structured content: SessionOutput. ChatCLI's session argument is
//     accepted and stands in for name where name is needed and omitted.
//   - ChatCLI's tool names, for clients configured for its MCP server:
//     ask_chatcli is chat; agent_task and coder_task {task, session?} run
//     one task in agent or coder mode and go back to the mode before (as
//     /agent TASK), with chat's result.
//
// Failures (unknown session, invalid or reserved name, missing argument,
// provider error) are tool results with IsError set and one line naming
// the session or file; only malformed requests are protocol errors. A turn
// whose reply arrived but could not be written (full disk, read-only
// store, lock held past its timeout, a name the file system refuses) is a
// tool error too, never a success with a warning: its text says why, that
// the turn is kept only in the server's memory and which session on disk
// lacks it, then gives the reply; the structured content still holds it.
//
// # Mirror
//
// The server holds one live conversation. While it is unbound it is
// mirrored after every turn to the machine-made session mcp-<id> (id from
// NewID at start-up; mcp-<id>-2, -3, … for each later conversation that
// new, clear, load, save, attach or fork starts), when Options.Mirror is on
// (CHATCLI_MCP_SESSION_AUTOSAVE, which follows CHATCLI_SESSION_AUTOSAVE
// when unset). While bound, write-through keeps the bound session instead.
// Mirrors expire by the retention rules like autosaves do.
//
// Tool calls are served one at a time: the engine is not safe for
// concurrent use. When Run's context ends (SIGTERM), a turn in flight is
// cancelled like a client cancellation (its prompt kept, marked
// unanswered), so the server exits without waiting for the provider.
package mcpserver
