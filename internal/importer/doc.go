// Package importer reads the stored conversations of other tools (Claude
// Code, Codex, Gemini CLI, opencode) and writes each one into chatcli's
// store as a named session with its journal, like a session chatcli
// wrote itself. One file per tool holds its format reader (claude.go,
// codex.go, gemini.go, opencode.go, each documenting the format it
// reads); a reader gives Conversations in chatcli's message shapes (user
// and assistant text, assistant tool calls, their results as role "tool"
// messages, each message's time in its "timestamp" member) and the
// Problems it skipped: lines that are not JSON or not of the tool's
// shape, each named by file and line. A file that cannot be read at all
// is an error for that file only.
//
// # Sessions
//
// A conversation becomes the session BaseName gives
// ("<prefix>-<title slug>-<last 8 characters of its id>", e.g.
// claude-fix-the-login-bug-4f2a9c1e; prefixes claude, codex, gemini,
// opencode; "-2", "-3", … when the name is taken). It is written through
// session.Store with its journal (transcripts/<id>.jsonl, the history
// recorded by journal.Sync, the file naming the journal position), its
// created_at and updated_at the conversation's first and last times, its
// title the tool's own title when it kept one, and the history repaired
// by message.Repair. The session file carries one more member, kept by
// every later save:
//
//	"imported_from":{"tool":"claude-code","id":"<the tool's id>",
//	 "source":"<file read>","folder":"<working folder>","messages":12,
//	 "sources":[{"id":"<the tool's id>","source":"<file read>","messages":12},…]}
//
// Its first members name the conversation written last (the shape builds
// before sources read); sources names every conversation, and so every
// file, the session was built from, in import order (origin.go).
//
// # The import record
//
// $CHATCLI_HOME/imports.json says what was imported of each conversation,
// so a second run adds only what is new:
//
//	{"version":1,"conversations":{"<tool>/<id>":{"source":"<file>",
//	 "session":"<name>","messages":12,"imported_at":"RFC 3339",
//	 "leaf":"<id of its last entry>"}}}
//
// A resumed conversation (a Claude Code file continuing an earlier one,
// see claude.go) extends the earlier one's session: its entry names that
// session, and its messages are appended after what the session holds,
// less those it repeats (told by each message's "source_uuid" member).
// A run imports such a conversation after the others it read, so the
// earlier one is in first whichever file sorts first; one whose earlier
// conversation never comes becomes a session of its own. Claude Code
// conversations are keyed by their file's own session id, so a resumed
// file that carries the earlier sessionId is not taken for the earlier
// file.
//
// A conversation the tool compacted (a Codex compacted line with its
// replacement_history, see compaction.go) is kept as chatcli keeps its
// own compaction: the session holds what the tool's model went on from
// (the messages it kept and the summary, meta.is_summary with
// summary_of) and the messages after it; its journal holds the messages
// before it, then a rewrite with reason "compact", so /rewind compact
// brings them back.
//
// messages counts the conversation's messages as the reader gives them
// (before repairs). A later run appends the messages after that count to
// the session, whatever was added to the session since in chatcli, and
// writes nothing for a conversation that did not grow. The record is
// written whole (atomicfile.WriteFile) every 64 conversations and at the
// end of a run, under the lock $CHATCLI_HOME/.imports.lock (flock(2)),
// held for the whole run so two runs never import one conversation twice.
// A run that stops between a session's write and the record's is finished
// by the next: the session is found by its name and imported_from member,
// and messages already at its end are not appended again.
//
// A dry run (Writer.DryRun) writes nothing and reports what the real run
// would: the entries and sessions it would have written are kept in
// memory (plan.go) and later conversations of the run are planned
// against them, so a resumed conversation counts as extending the
// session its earlier one would get.
package importer
