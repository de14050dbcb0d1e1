// Package reference expands the @ references of a prompt before it is
// sent (ChatCLI's context references):
//
//	@file PATH      the file's text, inline (at most MaxFileBytes; a binary
//	                file is refused)
//	@command CMD    runs CMD (the rest of the line) with sh -c in the working
//	                folder, with agent mode's permission rule, and inlines its
//	                output
//	@git            the branch, `git status --short` and the last 10 commits
//	@env            the environment, values of secret-looking names redacted
//	@history        the last 20 lines of the shell's history file
//	@session QUERY  the best hits of the cross-session search (the rest of
//	                the line), each quoted with its source
//	@recall KEY     a turn a compaction removed, verbatim from the journal
//	                (the compaction summary lists the keys)
//
// A reference is replaced by a block that keeps the reference's own text
// on its first line, so the stored prompt says what was asked and what it
// brought. The prompt is stored expanded: a resume sends the same thing.
// Each expansion is announced in one line ("attached main.go, 4.2 KiB").
// An @word that is not one of these is left as typed; so is @ inside a
// word (an e-mail address). A reference that cannot be expanded (a missing
// file, a refused command) is an error naming it, and nothing is sent.
package reference
