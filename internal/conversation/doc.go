// Package conversation is the engine every surface drives: the live unified
// history, its binding to a named session, and the turn loop.
//
// Invariants the engine keeps:
//
//   - A turn appends the user message, repairs the history (message.Repair:
//     fixes are reported through Notify and saved with the turn), sends
//     message.Request(history) and appends the reply. When the provider
//     fails or the turn is cancelled, the prompt stays in the history marked
//     meta.unanswered and no partial reply is recorded.
//   - While bound to a session, every turn (successful or not) is written
//     through to its file, and before every turn a newer revision written by
//     another process is adopted (last writer wins).
//   - Loading, attaching or starting a new conversation never loses the live
//     one: unsaved content is first saved as an autosave and its name
//     reported.
//   - On exit an unbound conversation with at least two non-system messages
//     is saved as autosave-YYYYMMDD-HHMMSS[-n] unless autosave is off.
package conversation
