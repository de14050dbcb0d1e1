package compact

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
)

// Tool names whose calls give facts for a summary, matched exactly. The
// first of each list is the name chatcli's own tools use.
var (
	readTools    = names("read_file", "view_file", "open_file", "cat")
	listTools    = names("list_dir", "list_directory", "list_files", "ls")
	searchTools  = names("search_files", "grep", "glob", "find_files")
	writeTools   = names("write_file", "edit_file", "create_file", "append_file", "replace_in_file", "delete_file")
	commandTools = names("run_command", "execute_command", "exec", "shell", "bash")
)

// Argument names that hold a path, a command or a search pattern, tried in
// order.
var (
	pathKeys    = []string{"path", "file_path", "filepath", "file", "filename", "target_file", "dir", "directory"}
	commandKeys = []string{"command", "cmd", "script"}
	patternKeys = []string{"pattern", "query", "regex", "glob"}
)

// factChars caps a path or command quoted in a fact, in characters.
const factChars = 200

func names(ns ...string) map[string]bool {
	m := make(map[string]bool, len(ns))
	for _, n := range ns {
		m[n] = true
	}
	return m
}

// fact is one bullet line for a factual section; key is what must appear
// in a line for the fact to count as already stated.
type fact struct {
	section   int
	key, line string
}

// collectFacts returns the facts of every tool call in msgs, each once, in
// the order of the calls.
func collectFacts(msgs []message.Message) []fact {
	var out []fact
	seen := map[fact]bool{}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			f, ok := factOf(c)
			if ok && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// factOf reads the fact a tool call states, from its JSON arguments.
func factOf(c message.ToolCall) (fact, bool) {
	a := parseArgs(c.Arguments)
	_, path := firstString(a, pathKeys)
	path = message.Clip(path, factChars)
	switch {
	case readTools[c.Name] && path != "":
		return fact{secFilesRead, path, "- " + code(path)}, true
	case listTools[c.Name]:
		if path == "" {
			path = "."
		}
		return fact{secFilesRead, path + " (listed)", "- " + code(path) + " (listed)"}, true
	case searchTools[c.Name]:
		_, pat := firstString(a, patternKeys)
		pat = message.Clip(pat, factChars)
		if path == "" {
			path = "."
		}
		return fact{secFilesRead, pat, "- " + code(path) + " (searched for " + code(pat) + ")"}, pat != ""
	case writeTools[c.Name] && path != "":
		line := "- " + code(path)
		if c.Name == "delete_file" {
			line += " (deleted)"
		}
		return fact{secFilesModified, path, line}, true
	case commandTools[c.Name]:
		_, cmd := firstString(a, commandKeys)
		cmd = message.Clip(strings.TrimSpace(cmd), factChars)
		return fact{secCommands, cmd, "- " + code(cmd)}, cmd != ""
	}
	return fact{}, false
}

// readKey identifies a read of one file for level 1: the tool, the cleaned
// path and the other arguments in canonical JSON. It is "" for a call that
// does not read a file.
func readKey(c message.ToolCall) (key, path string) {
	if !readTools[c.Name] {
		return "", ""
	}
	a := parseArgs(c.Arguments)
	k, path := firstString(a, pathKeys)
	if path == "" {
		return "", ""
	}
	delete(a, k)
	rest, _ := json.Marshal(a) // map keys come out sorted
	return c.Name + "\x00" + filepath.Clean(path) + "\x00" + string(rest), path
}

// parseArgs decodes tool-call arguments; nil when they are not a JSON
// object.
func parseArgs(s string) map[string]any {
	var a map[string]any
	if json.Unmarshal([]byte(s), &a) != nil {
		return nil
	}
	return a
}

// firstString returns the first of keys whose value in a is a non-empty
// string.
func firstString(a map[string]any, keys []string) (key, val string) {
	for _, k := range keys {
		if s, ok := a[k].(string); ok && strings.TrimSpace(s) != "" {
			return k, s
		}
	}
	return "", ""
}

// code quotes s as Markdown inline code.
func code(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}
