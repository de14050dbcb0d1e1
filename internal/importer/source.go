package importer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Source is one tool whose stored conversations can be read.
type Source struct {
	// Name is the tool's name on the command line: "claude-code", "codex",
	// "gemini", "opencode".
	Name string
	// Prefix begins the names of the sessions made from it ("claude", …).
	Prefix string
	// Default are the folders read when no path is given, relative to the
	// home folder; none for a tool whose files the user names.
	Default []string
	// HomeVar names the variable that moves the tool's own folder
	// (CLAUDE_CONFIG_DIR, CODEX_HOME), and HomeSub the folder read under
	// it; "" when the tool has none.
	HomeVar, HomeSub string
	// Match tells the tool's conversation files from the other files of
	// a folder being walked.
	Match func(path string) bool
	// Read reads one file: its conversations, the lines it skipped, and
	// an error when the file as a whole cannot be read (then nothing of
	// it is imported).
	Read func(path string) ([]Conversation, []Problem, error)
}

// ErrUnknownTool is returned by Lookup for a name no Source has.
var ErrUnknownTool = i18n.Errorf("importer: unknown tool")

// Sources are the tools chatcli imports from.
var Sources = []Source{claudeCode, codex, gemini, opencode}

// Lookup returns the Source named name; ErrUnknownTool, naming the
// known ones, otherwise.
func Lookup(name string) (Source, error) {
	var names []string
	for _, s := range Sources {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Source{}, i18n.Errorf("%w %q: one of %s", ErrUnknownTool, name, strings.Join(names, ", "))
}

// Roots are the folders read when no path is given: HomeSub under the
// folder HomeVar names when it is set, else the Default folders under
// getenv("HOME") (os.UserHomeDir when unset).
func (s Source) Roots(getenv func(string) string) []string {
	if s.HomeVar != "" {
		if dir := getenv(s.HomeVar); dir != "" {
			return []string{filepath.Join(dir, s.HomeSub)}
		}
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	var roots []string
	for _, d := range s.Default {
		roots = append(roots, filepath.Join(home, d))
	}
	return roots
}

// Files lists the conversation files under paths, sorted: a file named
// is taken as it is (whatever Match says), a folder is walked for the
// files Match accepts. Without paths the Roots are walked, and a missing
// root is no error. Errors: a named path that does not exist or cannot
// be walked, or no path for a Source without defaults.
func (s Source) Files(getenv func(string) string, paths []string) ([]string, error) {
	missingOK := false
	if len(paths) == 0 {
		if len(s.Default) == 0 {
			return nil, i18n.Errorf("importer: %s keeps no files chatcli can find; name the files to read (e.g. what `opencode export` wrote)", s.Name)
		}
		paths, missingOK = s.Roots(getenv), true
	}
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) && missingOK {
			continue
		}
		if err != nil {
			return nil, i18n.Errorf("importer: %w", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && s.Match(path) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, i18n.Errorf("importer: %w", err)
		}
	}
	sort.Strings(files)
	return files, nil
}
