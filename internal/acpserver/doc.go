// Package acpserver serves chatcli conversations to editors over the Agent
// Client Protocol (ACP, protocol version 1: JSON-RPC 2.0, one message per
// line on stdin/stdout; https://agentclientprotocol.com). It is a thin
// adapter: every ACP session is one conversation.Engine built by the
// caller's Options.NewEngine (the same provider, store, journal and "open"
// markers as the REPL), and slash commands typed in the editor's prompt box
// run through command.Dispatch. The wire layer is
// github.com/coder/acp-go-sdk, whose schema is ACP v1 as the official npm
// client (@agentclientprotocol/sdk 2.x) speaks it.
//
// Methods:
//
//   - initialize: protocolVersion 1; agentCapabilities.loadSession true,
//     promptCapabilities all false (text and resource links only),
//     sessionCapabilities.list {}; no auth methods.
//   - authenticate: accepted, does nothing (providers use their own keys).
//   - session/new: cwd, an absolute path to an existing folder (else an
//     error naming it), is the thread's workspace: its tools list, read,
//     write and run there, its file checkpoints are kept for it, and the
//     sessions it makes are recorded as used there (session/list's cwd).
//     mcpServers are accepted and ignored. The answer is a fresh random
//     sessionId (16 hex digits). The conversation starts empty and
//     unbound.
//   - session/load: sessionId is a chatcli session name. It is bound with
//     attach semantics (loaded when it exists, created at the first turn
//     when not); when no session has that name but "mcp-<sessionId>" does
//     (the mirror of an earlier ACP session), that one is loaded. The
//     whole history is replayed as session/update notifications before the
//     answer: user_message_chunk, agent_message_chunk, and tool_call (with
//     its result as tool_call_update) for tool calls; system messages are
//     not replayed. Text longer than ChunkBytes (256 KiB) is sent as
//     several chunks; a tool call's arguments or result longer than that
//     is shown cut, with its whole size, so no line nears 10 MiB.
//   - session/list: every session of the store, newest first, with title
//     and updatedAt (RFC 3339); cwd is the request's cwd filter when given
//     (sessions are not tied to a folder), else the server's working
//     directory. Pages of ListPageSize, nextCursor is the next offset.
//   - session/prompt: the text blocks of the prompt (resource links become
//     "[name](uri)") run one turn through Engine.Turn; each streamed delta
//     is sent as an agent_message_chunk, and each tool call of agent and
//     coder modes as it runs: tool_call (in_progress, its arguments as raw
//     input), then tool_call_update (completed or failed, with the result
//     the model got); the answer is stopReason end_turn,
//     or cancelled when session/cancel (or $/cancel_request) arrived first.
//     A line starting with "/" runs as a slash command instead, acting on
//     this ACP session's engine only; what it prints comes back as
//     agent_message_chunk text, in Options.Lang's language, as the REPL
//     prints it. An unknown command ("/nosuch") is answered as the REPL
//     answers it: its error line ("error: unknown command /nosuch; /help
//     lists the commands") as agent text, then end_turn. There is no
//     terminal: destructive verbs need --yes, as in script mode. Prompts
//     of one session run one at a time.
//   - session/request_permission (agent to client): Server.Ask, given to
//     the tools of agent and coder modes in place of a terminal, asks the
//     editor of the prompt's thread before each file write and command,
//     with the options allow_once, allow_always (this tool, for the
//     thread) and reject_once; the title (the REPL's question) and the
//     options' names are in Options.Lang's language.
//   - session/cancel: cancels the running turn's context; the engine keeps
//     the prompt, marked unanswered.
//
// Errors are JSON-RPC errors whose message is the one-line reason a person
// can act on (the same text the CLI prints, in Options.Lang's language)
// and whose data is {"reason": that line}. Codes: -32602 invalid params
// (params of the wrong shape, a bad or reserved session name, bad
// arguments of a known slash command, unsupported content), -32002
// resource not found (unknown sessionId, missing session), -32603 internal
// error (provider failures, unreadable files, anything else). A prompt
// whose turn could not be written (its mirror failed: full disk,
// read-only store, a held lock) is answered with an error saying so, never
// with end_turn.
//
// Mirror: while an ACP session is not bound to a named session and
// Options.Mirror is set, its conversation is written after every prompt to
// "mcp-<sessionId>" through Engine.Mirror (DESIGN.md §5); after a /session
// verb that replaces or rebinds the conversation, the next one goes to
// "mcp-<sessionId>-2", "-3", …, so no mirror overwrites another
// conversation. On Serve's return
// (stdin closed) every engine is closed: bound ones are written through,
// unbound ones mirrored once more (or, when that fails, autosaved).
//
// Framing (framing.go): a line-level filter stands in front of the SDK's
// reader and enforces JSON-RPC 2.0 (package jsonrpcline): a line that is
// not JSON gets -32700, one that is not a Request or Response object, a
// batch, or a line over MaxLineBytes gets -32600 (under its id when it has
// a valid one), and the server goes on; the notice of a refused line holds
// a bounded, quoted excerpt of it, never the line. Every call other than
// initialize is refused with -32600 until an initialize line was read. At
// the end of stdin the calls already read are answered (at most
// DrainTimeout) before the SDK sees the end.
//
// Nothing but protocol messages is written to the output; notices go to
// Options.Notify.
package acpserver
