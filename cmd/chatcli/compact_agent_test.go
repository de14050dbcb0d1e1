package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/compact"
)

// The summary of a real coder history (the built-in tools' own calls, as
// the engine saved them) lists the files and commands deterministically.
func TestCompactionOfACoderHistoryListsFilesAndCommands(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.go"), []byte("package a\n"), 0o644)
	script := append([][]scriptReply{{{Calls: []scriptCall{{"r0", "read_file", map[string]string{"path": "a.go"}},
		{"l0", "list_dir", map[string]any{"path": ".", "recursive": true}},
		{"s0", "search_files", map[string]string{"pattern": "package"}}}}, {Text: "read"}}}, coderScript...)
	script = append(script, []scriptReply{{Text: "anything else?"}}) // the tail kept verbatim
	for i, replies := range script {
		srv := scriptServer(t, replies, nil)
		env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
		if _, errOut, err := runIn(t, env, ws, "-p", "turn", "--coder", "--agent-auto-exec", "--session", "w"); err != nil {
			t.Fatalf("turn %d: %v\n%s", i+1, err, errOut)
		}
	}
	h := loadHistory(t, home, "w")
	r, err := compact.Compact(context.Background(), h, compact.Options{Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	var summary string
	for _, m := range r.History {
		if m.Meta != nil && m.Meta.IsSummary {
			summary = m.Content
		}
	}
	for _, want := range []string{
		"## Files Read\n- `a.go`\n- `.` (listed)\n- `.` (searched for `package`)\n",
		"## Files Modified\n- `a.go`\n- `b.go`\n- `dir/c.go`\n",
		"## Commands Executed\n- `touch x.txt`\n",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, summary)
		}
	}
}
