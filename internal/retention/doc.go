// Package retention bounds the store on disk. Its rules remove what chatcli
// made by itself and nobody asked to keep; what a person named is never
// removed automatically.
//
// # Rules
//
//   - TTL: a machine-made session (name starting "autosave-", "mcp-" or "gw-")
//     whose stored updated_at is older than Rules.SessionTTL
//     (CHATCLI_SESSION_TTL, default 90 days; 0 turns the rule off).
//   - keep-count: of each machine prefix, only the Rules.KeepPerPrefix
//     newest sessions are kept (CHATCLI_SESSION_AUTOSAVE_KEEP, default 600;
//     0 means no limit), ranked as `chatcli session list` shows them: by
//     stored updated_at, newest first, ties by name in byte order.
//   - orphan journal: transcripts/<id>.jsonl that no session and no trashed
//     session names (a session file without transcript_id names the one
//     its link records, transcripts/links/<name>.json: ChatCLI's rewrites
//     drop the member), not written for Rules.SessionTTL (by file mtime: a
//     journal has no stored time of its own). The rule is skipped while any
//     session or trashed session cannot be read, since it might name one.
//   - leftover temp file: hidden ".<name>.tmp-*" files (see atomicfile) in
//     sessions/, transcripts/ and trash/, and those of the input history
//     file, older than Rules.TempTTL (1 hour): no write takes that long.
//     Only names ending ".tmp-<digits>" count, so a session's lock file
//     and open marker are never taken for one. The lock files and open
//     markers an older build left in sessions/ (".<name>.lock",
//     ".<name>.open"; this build keeps them under locks/) count too, as
//     KindLegacyLock: each is removed only while locked exclusively without
//     waiting, so one a live process holds is kept.
//   - expired trash: trashed sessions older than Rules.TrashTTL (7 days).
//   - workspace gone: a checkpoint repository of coder mode
//     (checkpoints/<key>/, see package shadow) whose recorded workspace
//     folder no longer exists. Apply checks again, under the repository's
//     lock, and deletes the folder whole; one whose workspace file cannot
//     be read is kept.
//
// Sessions removed by a rule go to the trash (session.Store.Trash), so
// `chatcli session restore NAME` brings one back within a week (Restore:
// a machine-made session is saved again on its way back, so its
// updated_at is the time of the restore and the next pass keeps it); journals,
// temp files and expired trash entries are deleted. Sessions whose file
// cannot be read are never removed.
//
// # Open sessions
//
// A process bound to a session holds a shared flock(2) on the marker file
// locks/<name>.open (MarkOpen, or a Marker that follows the binding). The
// marker an older build holds, sessions/.<name>.open, spares the session
// too, and Apply locks both; an older build's own pass knows only its
// folder, so upgrade every chatcli sharing a store before pruning with an
// older one.
// Plan lists an open machine session as spared; Apply takes an exclusive
// lock on the marker, without waiting, before moving a session to the
// trash, and skips it when that fails, so a session open in a live process
// is never removed. Both sides check, once locked, that the marker they
// locked is still the file at that path, so removing a marker never lets
// two processes believe they hold it. Markers are empty files, removed by
// the last process that releases them and by Apply.
//
// # Use
//
// Plan lists what the rules would remove now, grouped by Reason; Apply
// carries a plan out, re-checking each item first (a session updated or
// opened since, a journal named or written since, is left alone); Report
// describes each store with the rule that governs it; Background runs Plan
// and Apply once at start-up of a long-lived surface.
package retention
