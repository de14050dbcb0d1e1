package tools

import (
	"context"
	"encoding/json"

	"github.com/chatcli/chatcli/internal/provider"
)

// Modes in which tools are offered (the values of conversation.ModeAgent
// and conversation.ModeCoder).
const (
	ModeAgent = "agent"
	ModeCoder = "coder"
)

// spec is one built-in tool: what the model sees and the function that
// runs it.
type spec struct {
	tool provider.Tool
	// coderOnly marks tools that change files, offered in coder mode only.
	coderOnly bool
	// clipsItself marks tools whose output is already capped (they
	// capture with the cap and add a status line), so Run does not cut it
	// a second time.
	clipsItself bool
	run         func(b *Box, ctx context.Context, args []byte) (string, error)
}

// specs lists the built-in tools in the order they are offered.
var specs = []spec{
	{tool: provider.Tool{
		Name: "read_file",
		Description: "Read a text file in the workspace. Returns its lines verbatim. " +
			"For a big file, read a window with offset (first line, 1-based) and limit (number of lines, default 2000); " +
			"when the window does not cover the whole file a last line says which lines were shown and the total number of lines. " +
			"Paths are relative to the workspace root; paths outside the workspace are refused. Binary files are refused.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"File path, relative to the workspace root (or absolute inside it)."},` +
			`"offset":{"type":"integer","minimum":1,"description":"First line to return, 1-based. Default 1."},` +
			`"limit":{"type":"integer","minimum":1,"description":"Maximum number of lines to return. Default 2000."}` +
			`},"required":["path"],"additionalProperties":false}`),
	}, run: (*Box).readFile, clipsItself: true},
	{tool: provider.Tool{
		Name: "list_dir",
		Description: "List a directory of the workspace, one entry per line, sorted by name; directories end with \"/\", " +
			"symlinks show \"name -> target\". With recursive, lists the whole tree (paths relative to the listed directory, " +
			"skipping .git, not following symlinks). At most max_entries lines (default 500); a last line says how many more there were.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"Directory, relative to the workspace root. Default: the root."},` +
			`"recursive":{"type":"boolean","description":"List subdirectories too. Default false."},` +
			`"max_entries":{"type":"integer","minimum":1,"description":"Maximum number of entries to list. Default 500."}` +
			`},"additionalProperties":false}`),
	}, run: (*Box).listDir},
	{tool: provider.Tool{
		Name: "search_files",
		Description: "Search file contents in the workspace with a regular expression (RE2 syntax, as Go's regexp; " +
			"no lookaround or backreferences). Prints one match per line as path:line:text, path relative to the workspace root. " +
			"Skips .git, binary files, files over 1 MiB and symlinks. glob filters file names (e.g. \"*.go\"; " +
			"a glob containing \"/\" matches the path relative to the searched directory). At most max_results matches (default 100).",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"pattern":{"type":"string","description":"Regular expression (RE2), matched against each line. Use (?i) for case-insensitive."},` +
			`"path":{"type":"string","description":"Directory or file to search, relative to the workspace root. Default: the root."},` +
			`"glob":{"type":"string","description":"Only search files whose name matches this glob, e.g. \"*.go\"."},` +
			`"max_results":{"type":"integer","minimum":1,"description":"Maximum number of matching lines. Default 100."}` +
			`},"required":["pattern"],"additionalProperties":false}`),
	}, run: (*Box).searchFiles},
	{coderOnly: true, tool: provider.Tool{
		Name: "write_file",
		Description: "Create or replace a file in the workspace with the given content (the whole file). " +
			"Creates missing parent directories. An existing file keeps its permissions. " +
			"The user may be asked to allow the write first; if they decline, the file is left unchanged. " +
			"To change part of an existing file, prefer edit_file.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"File path, relative to the workspace root."},` +
			`"content":{"type":"string","description":"The complete new content of the file."}` +
			`},"required":["path","content"],"additionalProperties":false}`),
	}, run: (*Box).writeFile},
	{coderOnly: true, tool: provider.Tool{
		Name: "edit_file",
		Description: "Replace text in an existing file of the workspace. old_string must match the file exactly " +
			"(whitespace and indentation included) and, unless replace_all is true, exactly once: " +
			"include enough surrounding lines to make it unique. Zero matches or several matches are an error that says how many. " +
			"The user may be asked to allow the edit first.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"path":{"type":"string","description":"File path, relative to the workspace root."},` +
			`"old_string":{"type":"string","description":"Exact text to replace; must not be empty."},` +
			`"new_string":{"type":"string","description":"Text to put in its place."},` +
			`"replace_all":{"type":"boolean","description":"Replace every occurrence instead of exactly one. Default false."}` +
			`},"required":["path","old_string","new_string"],"additionalProperties":false}`),
	}, run: (*Box).editFile},
	{tool: provider.Tool{
		Name: "run_command",
		Description: "Run a shell command with sh -c in the workspace root, with no input, and return its combined " +
			"stdout and stderr and its exit status. A non-zero exit status is reported as an error. " +
			"The command is killed (with every process it started) after timeout_seconds (default {timeout}). " +
			"Long output is cut in the middle. The user may be asked to allow the command first.",
		Parameters: json.RawMessage(`{"type":"object","properties":{` +
			`"command":{"type":"string","description":"Shell command line, e.g. \"go test ./...\"."},` +
			`"timeout_seconds":{"type":"number","description":"Kill the command after this many seconds. Default {timeout}."}` +
			`},"required":["command"],"additionalProperties":false}`),
	}, run: (*Box).runCommand, clipsItself: true},
}
