// Package tools holds the built-in tools of agent and coder modes and runs
// them for the conversation engine: a *Box implements conversation.Toolbox
// (Tools lists what the model is offered, Run executes one tool call and
// returns the content of the role "tool" message answering it).
//
// # Tools per mode
//
//	tool          arguments                                      agent  coder
//	read_file     {path, offset?, limit?}                        yes    yes
//	list_dir      {path?, recursive?, max_entries?}              yes    yes
//	search_files  {pattern, path?, glob?, max_results?}          yes    yes
//	write_file    {path, content}                                no     yes
//	edit_file     {path, old_string, new_string, replace_all?}   no     yes
//	run_command   {command, timeout_seconds?}                    yes    yes
//
// Chat mode (and any other mode) has no tools; a call of a tool the mode
// does not offer is an error result. Each tool's Parameters is a JSON
// Schema object (type object, properties, required,
// additionalProperties false); arguments with unknown fields, wrong types
// or trailing data are an error result naming the problem, never a panic.
// Empty arguments are read as {}.
//
// read_file returns the file's lines verbatim; offset (1-based) and limit
// (default 2000 lines) select a window, and a partial window ends with
// "[lines A-B of N shown; read on with offset B+1]". list_dir lists one
// entry per line ("dir/", "link -> target"); recursive walks skip .git and
// do not follow symlinks. search_files is a grep over RE2 regular
// expressions printing path:line:text (path relative to the workspace,
// lines cut at 300 bytes), skipping .git, symlinks, binary files (a NUL
// byte in the first 8000 bytes) and files over 1 MiB. run_command runs
// `sh -c command` in the workspace root with no input, its stdout and
// stderr captured together; the shell leads a new process group that is
// killed (SIGKILL) on timeout (default 2 minutes), on cancellation and once
// the shell exits. A non-zero exit status, a timeout or a cancellation is
// an error result that still carries the output.
//
// # Confinement
//
// Every path is confined to the workspace, Options.Root. A relative path
// resolves against the root; an absolute path must lie inside it. Symlinks
// are resolved in every component, including the last one and dangling
// links (followed to where a write would land), and the result must lie
// inside the root with its own symlinks resolved: "../x", "a/../../x",
// "/etc/passwd", a link to /etc and a dangling link to /tmp/new are all
// refused with "path … is outside the workspace …". Reads, listings and
// searches then go through an os.Root opened on the workspace (openat with
// no escape, race-safe), and walks never follow symlinks. Writes land on the
// resolved path, so a symlink inside the workspace pointing to another
// file inside it is written through and stays a link. The residual race (a
// component swapped for a symlink between the check and a write) needs a
// process already able to write the workspace, as run_command is.
//
// # Output cap
//
// A tool's output is capped at Options.OutputCap bytes (default 32 KiB):
// longer output keeps a head of at most cap/2 bytes and a tail of at most
// the rest, joined by a line "[… 12,345 bytes cut …]" (the note itself is
// not counted). Cuts fall on grapheme-cluster boundaries (UAX #29, via
// github.com/rivo/uniseg): no character, emoji ZWJ sequence, flag or letter
// with combining marks is split, and the result is valid UTF-8 (invalid
// bytes become U+FFFD as internal/message.ValidUTF8 does). run_command keeps
// only the first and last cap bytes while the command runs, so a command
// printing gigabytes costs 2×cap of memory.
//
// # Permission
//
// Before every write_file, edit_file and run_command, after its arguments
// were checked and before anything changes, Box asks Options.Permit with an
// Action whose Summary is one line ("write main.go (1.2 KB, new file)",
// "edit util.go (replace 1 match)", "run: go test ./..."). DecisionYes
// allows that one action; DecisionAlways allows every later call of the
// same tool for the life of the Box; DecisionNo leaves everything untouched
// and returns an error result telling the model the user declined. An
// error from Permit (such as "input is not a terminal") refuses with that
// reason. Options.AutoExec skips the question; with Permit nil and AutoExec
// off every change is refused ("no way to ask for permission").
//
// # Writes and hooks
//
// After permission, Hooks.BeforeChange(absPath) runs before a write or
// edit (its error aborts: the file stays byte-identical), the new content
// is written durably and atomically with internal/atomicfile.WriteFile
// (temporary file, fsync, rename, directory fsync; missing parent
// directories are created inside the workspace), the file keeps its mode
// (new files get 0644), and Hooks.AfterChange(absPath) runs once it landed
// (its error is reported as a warning with the success). Hooks.Command
// (cmdline) runs before each allowed command.
package tools
