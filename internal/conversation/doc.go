// Package conversation is the engine every surface drives: the live unified
// history, its binding to a named session, and the turn loop.
//
// Invariants the engine keeps:
//
//   - A turn appends the user message, repairs the history (message.Repair:
//     fixes are reported through Notify and saved with the turn), sends
//     message.Request(history) and appends the reply. When the provider
//     fails or the turn is cancelled, the prompt stays in the history marked
//     meta.unanswered and no partial reply is recorded; the next turn's
//     request leaves it out (message.Request), so one failed prompt never
//     makes the later ones fail too. A provider's
//     context-length error (provider.KindContextLength) is answered once
//     per request by an announced compaction and one retry (overflow.go).
//     A reply's reasoning (meta.reasoning) is kept with it, for replay to
//     the provider that wrote it.
//   - While bound to a session, every turn (successful or not) is durable
//     before it returns: committed to the session's journal, or written
//     through to its file when the journal is off or cannot be used; and
//     before every turn what other processes wrote is taken in. Two
//     writers never silently lose a turn (see The journal and the
//     snapshot, and Concurrent writers).
//   - Loading, attaching or starting a new conversation never loses the live
//     one: unsaved content is first saved as an autosave and its name
//     reported.
//   - On exit an unbound conversation with at least two non-system messages
//     is saved as autosave-YYYYMMDD-HHMMSS[-n] unless autosave is off.
//   - A store or journal write that landed but whose folder fsync failed
//     (an error wrapping atomicfile.ErrNotDurable) is a write: a notice
//     says it is not known to be durable, the call succeeds, and the engine
//     goes on from what it wrote, so nothing is written twice.
//
// # The journal and the snapshot
//
// With the journal on, the journal is the write-ahead log of the bound
// session and its file the snapshot (snapshot.go, DESIGN.md §4): each
// step of a turn is one journal.Journal.Commit (one write, one fsync) of
// the messages the journal lacks and, when it changed, the checkpoint
// list (a turn's one checkpoint added rides on its prompt's record); the
// file is written when the journal cannot hold the turn (off,
// failing, a meta change such as meta.unanswered, a file that names no
// journal position) and otherwise only on exit (Close), load, new, detach,
// an explicit save, and when the journal's tail since the file passes
// half the file (at least 64 KiB), so the bytes written over a session's
// life stay proportional to its size. The file names the journal position
// it covers (session.Session.JournalPos) only when the journal's view at
// that position is exactly the file's history and its checkpoint list the
// file's, and a load is the file plus the records after it
// (session.Store.Load).
//
// Other windows bound to the same session commit to the same journal:
// Commit takes in, under the journal's lock, what they appended since
// this engine last read (one notice counts the messages), turns follow
// each other in journal order with a turn's messages kept together, and
// their checkpoints join this engine's (rewind.Merge). A file another
// window wrote as a snapshot of the same journal is never merged: the
// journal already holds what it holds. Two rewrites of one base (both
// compacted or rewound what they read) cannot both be the journal's view:
// this side is kept as a conflict fork (rule 2 below) and the other side
// becomes live.
//
// A window bound to a session that does not exist (Attach of a new name
// with an empty history, or a session deleted elsewhere since) records
// its turns in a journal of its own, which no file names: its base stays
// empty (a journal commit is the base only while the bound file, as last
// seen, names that journal). When another window creates the session
// first, the first write-through meets the file and merges (rule 1
// below: with an empty base every message of this side is new): this
// window goes on in the file's journal, its turn after what the other
// window wrote, one notice counts what arrived, and the file written
// names the journal position (the merged checkpoints recorded with it).
// Windows that create one session at once thus append in journal order,
// as bound windows do, and never fork; the journal left behind, named by
// no session, is an orphan journal for retention.
//
// # Concurrent writers
//
// Files written without the journal (the journal off, another program,
// an older version) are reconciled as follows. Any number of processes
// may bind the same session. Each engine remembers
// the revision and the history of the bound file as it last read or wrote
// it (the base). Before a turn it reads the file's header without a lock
// and, when the revision differs, loads the newer version: it becomes live
// when this engine has no unsaved changes. Every write-through is
// conditional (session.Store.SaveIf with the revision last seen), so a write
// by another process that lands during the turn is caught under the
// session's lock. When both sides changed since the base, the file is
// read again and settled under the lock (session.Store.Update), so no
// third write comes between:
//
//  1. Merge, when the other side's history and ours both extend the base
//     by new messages (compared by journal hash): the result is the base,
//     then the other side's new messages, then ours, in order, provided it
//     passes message.Validate (tool-call groups intact). It is written and
//     one notice says how many messages arrived from elsewhere. The
//     checkpoints of both sides are kept (rewind.Merge: the union, oldest
//     first, at most rewind.MaxCheckpoints). A file deleted meanwhile is written
//     again with this side.
//  2. Otherwise (one side compacted, rewound or repaired, or the merge
//     would split a tool-call group): this side is saved as a new session
//     NAME.conflict-YYYYMMDD-HHMMSS[-n] (engine clock; NAME clipped so the
//     whole is a valid name) with its own journal forked from the
//     lineage's, one notice names it, and the other side becomes live. If
//     the fork cannot be written nothing is adopted and the error is
//     returned; the unsaved history is kept by Close as an autosave.
//
// Both sides are recorded in the lineage's journal before either rule
// applies, so the journal holds every message of both.
//
// Modes (agent.go): chat (no tools), agent (the Toolbox's read-only tools
// and run_command) and coder (every tool). The history is one array in
// every mode; each new message carries its mode in meta.mode, and entering
// a mode appends that mode's system message (SetMode, or the next turn when
// a loaded or new history does not announce the current mode). In agent and
// coder modes a turn is a tool loop:
//
//   - the request offers Toolbox.Tools(mode); a reply with tool calls is
//     appended and journalled before the calls run, then each call runs in
//     order and its result (a role "tool" message with the call's id, meta
//     tool_error when it failed) is appended and journalled as it lands;
//     the history is written through after each step, and the next request
//     goes out; the first reply without tool calls ends the turn;
//   - one checkpoint is taken per user turn, before its first request, so
//     /rewind steps back over a whole task; with Options.CodeCheckpoints it
//     also holds the file checkpoint id of that moment (rewind.Checkpoint
//     Code), which CodePlan and RestoreCode use to set the workspace's
//     files back (code.go); chat-mode checkpoints hold none;
//   - when a step's write-through keeps this side as a conflict fork (rule
//     2 of Concurrent writers), the turn stops with ErrForkedAway naming
//     the fork: the other side's history, now live, is never sent to the
//     model as the continuation of this task;
//   - at Options.MaxSteps requests (DefaultMaxSteps) with the model still
//     calling tools, the turn stops with ErrStepLimit;
//   - when ctx ends (Esc, Ctrl+C), calls not yet run get a tool message
//     with message.InterruptedResult and meta.repair interrupted_tool_call:
//     no call is ever left without its result, on disk or in the journal.
//
// # Around the history
//
// Options.Supplement (supplement.go) gives system messages sent before the
// history of every request and never stored in it: the bootstrap files,
// the global memory and the attached contexts (internal/contexts). They
// are added to a copy of the cached request, so the request cache keeps
// converting only the history, and compaction never sees them. The
// conversation's attachment records are the session's `attachments`
// member (Attachments, SetAttachments): kept by save, load, resume, fork
// and a conflict fork like the session's other members, and written to
// the bound file at once when they change.
//
// Options.Expand rewrites a prompt before it is stored (the @ references,
// internal/reference): the history holds the expanded text, so a resume
// or /retry sends the same thing. A compaction's summary ends with a
// recall key per user turn it removed (recall.go); Recall reads that turn
// back from the journal, for @recall.
package conversation
