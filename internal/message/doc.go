// Package message holds the provider-neutral conversation types (Message,
// ToolCall, Meta, Role) and the message-sequence invariants every surface
// relies on.
//
// A history is an ordered []Message. Before it is sent to a provider, after
// every load and after every rewrite it must satisfy the rules of Validate
// (DESIGN.md §7):
//
//   - every assistant tool call has exactly one tool result after it and
//     before the next assistant turn;
//   - no tool message lacks its call;
//   - no assistant message is empty (no content and no tool calls);
//   - text is valid UTF-8: invalid bytes become U+FFFD one for one, the way
//     encoding/json decodes them, and lone UTF-16 surrogates in JSON escapes
//     become U+FFFD as encoding/json already does; NUL bytes survive.
//
// Repair fixes a history deterministically and reports every change as a
// Fix, so the caller can show it and save it. Two user messages in a row are
// legal in a stored history (an unanswered prompt followed by a new one) but
// never in a request: Request leaves out a prompt marked unanswered that a
// newer prompt follows (a failure is never sent again unless the person
// resends it) and merges other consecutive prompts.
//
// The JSON shape of a Message is the one of ChatCLI's session format v2
// (diillson/chatcli models.Message, ToolCall and ImageContent), so that
// ChatCLI 1.188.0 reads every file chatcli writes:
//
//	{"role":"assistant","content":"…","meta":{"is_summary":true,"summary_of":3,"mode":"chat"},
//	 "tool_calls":[{"id":"a","type":"function","name":"read_file","arguments":{"path":"a.go"}}],
//	 "tool_call_id":"a",
//	 "images":[{"media_type":"image/png","data":"<base64>","url":"…","file_name":"a.png"}],
//	 "is_error":true}
//
// A tool call's arguments are an object on disk and the model's exact text
// in memory (ToolCall says how both are kept); older chatcli files with
// arguments as a string and images as data-URL strings are read too.
// is_error is ChatCLI's mark of a failed tool result: it is read into
// Meta.ToolError and written from it (meta.tool_error is written too).
// Fields a Message, Meta, ToolCall or Image does not know are kept in
// Extra and written back unchanged (ChatCLI's system_parts, error_code,
// a tool call's raw), so a rewrite never drops data written by another
// program.
package message
