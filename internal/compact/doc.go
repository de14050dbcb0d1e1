// Package compact shrinks a conversation history: the pipeline behind
// /compact and auto-compaction (DESIGN.md §6).
//
// Compact runs at most one compaction per call, in up to three levels, and
// stops at the first level that is enough:
//
//  1. Trim, without an LLM, on the messages before the kept tail: strip
//     <reasoning>, <thinking> and <think> blocks from assistant text; drop
//     terminal escape sequences and carriage-return overwrites from tool
//     output; remove trailing blanks and squeeze runs of blank lines; replace
//     the content of an exact duplicate tool result, and of an older read of
//     a file read again later (same tool, same path, same other arguments),
//     by a short marker naming what it was (the tool message itself stays,
//     so its call keeps its result); shorten tool outputs over 8 KB to head
//     and tail around a marker saying how many bytes and lines were cut.
//     Cuts fall between characters (grapheme clusters), at line ends when
//     one is near. A marker never replaces text shorter than itself. With a
//     TargetBytes that trimming reaches, this is the result.
//
//  2. Summarise: one summary message replaces the middle, every non-system
//     message before the kept tail. It is a user message (as ChatCLI writes
//     them) with Meta{IsSummary: true, SummaryOf: N} and the content shown
//     below: a header line, then six sections in a fixed order. The provider gets a system
//     prompt asking for exactly those sections and the middle as a
//     transcript (roles, text, tool calls with their arguments, clipped tool
//     results), capped at Options.RequestBytes and sized to fit
//     Options.WindowTokens with the prompt and the reply; a middle that does
//     not fit one request is summarised in chunks of whole tool groups, each
//     request carrying the summary so far (window.go). Each section shows
//     at most 30 lines, the latest, after "- … and N more". File and command facts taken
//     from the tool calls (read_file, list_dir, search_files → Files Read;
//     write_file, edit_file → Files Modified; run_command → Commands
//     Executed; see facts.go for every name) are merged into the reply's
//     sections, so they survive a weak model. Without a provider, or with
//     the offline one, the summary is built from those facts and a digest
//     of the middle alone, with no request. An earlier summary in the middle
//     is folded in: SummaryOf adds up, and there is one summary afterwards.
//     The result is the middle's system messages (verbatim, in order), the
//     summary, then the tail. A summary not smaller than the messages it
//     replaces is refused: ErrSummaryTooLarge (which also matches
//     ErrNothingToGain), with the input history, level-1 trims included.
//
//  3. Truncate, in an emergency. When TargetBytes is still exceeded after a
//     summary, the summary stays and the oldest groups of the kept tail after
//     it are dropped (never the latest request or what follows it) and
//     counted in its summary_of, with a line saying so. Otherwise, when
//     there was nothing to summarise, or when level 2 failed with a provider
//     error during an automatic compaction (see
//     Result.SummaryErr), the middle is dropped and one marker message
//     stands for it: "[CONTEXT TRUNCATED: N earlier messages removed due
//     to context window limit. Recent context preserved below.]", the text
//     ChatCLI writes, in the user role with IsSummary and SummaryOf N (after
//     a failed summary the marker names the error and keeps the file and
//     command facts). When TargetBytes is still exceeded, the oldest tool
//     groups of the tail go too, never the latest user request or anything
//     after it.
//
// A summary reads (a guided one starts [GUIDED COMPACT — covering N earlier
// messages | instruction: "…"]):
//
//	[COMPACT — covering N earlier messages]
//
//	## Files Read
//	- `internal/parse/parse.go`
//
//	## Files Modified
//	- none
//
//	## Commands Executed
//	- `go test ./internal/parse/`
//
//	## Key Decisions
//	- …
//
//	## Errors & Resolutions
//	- …
//
//	## Current Task State
//	- …
//
// The kept tail is the last Options.Keep messages, its start moved earlier
// to a tool-group boundary (an assistant message with tool calls and all of
// its results stay together, parallel calls included); level 1 trims only
// before it. Levels 2 and 3 also keep everything from the latest user
// request on, so that request stays verbatim and is the last user message.
// A summary left inside the tail by an earlier compaction is folded rather
// than kept (the cut then moves to just after it): there is never more than
// one.
//
// Invariants of every result: each system message survives verbatim and in
// order; the latest user request and the tail stay verbatim (level 3 may
// drop the oldest groups of the tail); no tool call is separated from its
// results; there is at most one summary message; its SummaryOf counts every
// message it stands for; Size never grows; the result passes
// message.Validate. When no level changed anything, or the
// summary would not be smaller, Compact returns ErrNothingToGain with the
// input history. A cancelled context during level 2 returns an error
// matching ctx.Err() with the input history: there is no fall-through to
// level 3 on cancellation. The input slice and its messages are never
// modified.
package compact
