package main

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// Marker words of TestE2EKeyLeavesNoPlaintext: conversationWord is in
// prompts, replies, the files the tools write and the commands they run;
// folderWord only in the workspace folder's name, which the store keeps in
// plaintext (README, Encryption: folder paths).
const (
	conversationWord = "quokkamarker"
	folderWord       = "wombatfolder"
)

// folderPlaintext says whether the file at rel (relative to CHATCLI_HOME)
// is one README lists as keeping folder paths in plaintext, or the
// temporary file a write of recent.json is still filling
// (atomicfile.TempPattern), which holds the same record.
func folderPlaintext(rel string) bool {
	return rel == "recent.json" || strings.HasPrefix(rel, ".recent.json.tmp-") ||
		strings.HasPrefix(rel, "checkpoints/") && strings.HasSuffix(rel, "/workspace")
}

// scanStore fails on every file under home holding word, in its bytes or,
// for a file that is a zlib stream (a loose git object), once inflated,
// unless allowed(rel); and on every folder or file others may read. It
// returns the files it read.
func scanStore(t *testing.T, home, word string, allowed func(rel string) bool) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if rel != "." && fi.Mode().Perm()&0o077 != 0 { // the test made home itself
			t.Errorf("%s has mode %v: folders are 0700 and files 0600", rel, fi.Mode().Perm())
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		found := bytes.Contains(data, []byte(word))
		if zr, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
			inflated, _ := io.ReadAll(zr)
			found = found || bytes.Contains(inflated, []byte(word))
		}
		if found && !allowed(filepath.ToSlash(rel)) {
			t.Errorf("%s holds %q readable at rest", rel, word)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestE2EKeyLeavesNoPlaintext drives coder and agent mode through the
// binary with a key set, against a streaming chat-completions server: the
// tools write, edit and create files and run commands, a rewind restores
// the code, and the REPL on a terminal records typed input. Then every
// byte under CHATCLI_HOME is scanned: the conversation's word is nowhere,
// the folder's word only in the files that keep folder paths.
func TestE2EKeyLeavesNoPlaintext(t *testing.T) {
	needTmux(t)
	home := t.TempDir()
	ws := filepath.Join(t.TempDir(), "ws-"+folderWord)
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main // "+conversationWord+" before\n"), 0o644)
	w := conversationWord
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"c1", "write_file", map[string]string{"path": "docs/notes.md", "content": "# " + w + " notes\n"}},
			{"c2", "edit_file", map[string]string{"path": "main.go", "old_string": "before", "new_string": "after " + w}},
			{"c3", "run_command", map[string]string{"command": "echo " + w + " > out.txt"}}}},
		{Text: "wrote the " + w + " notes"},
		{Calls: []scriptCall{{"c4", "run_command", map[string]string{"command": "grep -rl " + w + " ."}}}},
		{Text: "found " + w + " in three files"},
	}, nil)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(3), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	for _, mode := range []string{"--coder", "--agent"} {
		out, errOut, code := runDir(t, ws, env, "-p", "task "+w+" "+mode, mode, "--agent-auto-exec", "--session", "job")
		if code != 0 || !strings.Contains(out, w) {
			t.Fatalf("%s: exit %d, stdout %q\nstderr:\n%s", mode, code, out, errOut)
		}
	}
	list, errOut, code := runDir(t, ws, env, "session", "rewind", "job", "--list")
	n := strings.Count(list, "+code")
	if code != 0 || n == 0 {
		t.Fatalf("rewind --list: exit %d\n%s%s", code, list, errOut)
	}
	out, errOut, code := runDir(t, ws, env, "session", "rewind", "job", "--to", fmt.Sprint(strings.Count(list, "\n")), "--code-only", "--yes")
	if code != 0 || !strings.Contains(out, "remove          docs/notes.md") {
		t.Fatalf("rewind --code-only:\n%s\n%s\n%s", list, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "main.go")); string(b) != "package main // "+w+" before\n" {
		t.Fatalf("main.go after the rewind: %q", b)
	}
	// Typed input, on a terminal: the input history.
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-seal-%d", os.Getpid()), dir: ws}
	s.start(120, 40, "CHATCLI_HOME="+home, "CHATCLI_ENCRYPTION_KEY="+b64Key(3))
	s.waitFor("offline>")
	s.run("send-keys", "-t", s.name, "typed "+w, "Enter")
	s.waitFor("reply #1 to: typed " + w)
	s.run("send-keys", "-t", s.name, "C-d")
	s.waitFor("Conversation saved as")

	files := scanStore(t, home, w, func(string) bool { return false })
	scanStore(t, home, folderWord, folderPlaintext)
	checkSealedKinds(t, files)
}

// checkSealedKinds fails unless the store holds what the scan must have
// looked at: a sealed input history, sealed checkpoint state, contents
// and manifests, and no git repository.
func checkSealedKinds(t *testing.T, files map[string][]byte) {
	t.Helper()
	seen := map[string]int{}
	for rel, data := range files {
		parts := strings.Split(rel, "/")
		switch {
		case strings.Contains(rel, "/git/"):
			t.Errorf("%s: a git repository was kept with a key", rel)
		case rel == "history":
			for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if !seal.IsSealedLine([]byte(line)) {
					t.Errorf("history line %q is not sealed", line)
				}
			}
			seen["history"]++
		case parts[0] == "checkpoints" && len(parts) >= 3:
			kind := parts[2]
			if kind == "state" || kind == "objects" || kind == "manifests" {
				if !seal.IsSealed(data) {
					t.Errorf("%s is not sealed", rel)
				}
				seen[kind]++
			}
		}
	}
	for _, kind := range []string{"history", "state", "objects", "manifests"} {
		if seen[kind] == 0 {
			t.Errorf("no %s file under CHATCLI_HOME (seen %v)", kind, seen)
		}
	}
}

// TestE2EPlaintextHistoryFlag: --plaintext-history keeps typed input in
// plaintext although a key is set, and --help says so.
func TestE2EPlaintextHistoryFlag(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-plainhist-%d", os.Getpid()), args: []string{"--plaintext-history"}}
	home := s.start(120, 40, "CHATCLI_ENCRYPTION_KEY="+b64Key(3))
	s.waitFor("offline>")
	s.run("send-keys", "-t", s.name, "typed "+conversationWord, "Enter")
	s.waitFor("reply #1 to: typed " + conversationWord)
	s.run("send-keys", "-t", s.name, "C-d")
	s.waitFor("Conversation saved as")
	if b, err := os.ReadFile(filepath.Join(home, "history")); err != nil || string(b) != "typed "+conversationWord+"\n" {
		t.Fatalf("history with --plaintext-history: %q, %v", b, err)
	}
	out, _, _ := run(t, nil, "", "--help")
	if !strings.Contains(out, "--plaintext-history") || !strings.Contains(out, "CHATCLI_HISTORY_PLAINTEXT") {
		t.Fatalf("--help does not document the plaintext history:\n%s", out)
	}
}

// TestE2ERekeyCoversCheckpointsAndHistory: `storage rekey` moves the file
// checkpoints and the input history to the new key with the sessions, so
// a rewind of the code works under the new key alone.
func TestE2ERekeyCoversCheckpointsAndHistory(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"w", "write_file", map[string]string{"path": "made.txt", "content": conversationWord}}}},
		{Text: "wrote it"},
	}, nil)
	k1 := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(4), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	if out, errOut, code := runDir(t, ws, k1, "-p", "write", "--coder", "--agent-auto-exec", "--session", "job"); code != 0 {
		t.Fatalf("coder turn: exit %d %s %s", code, out, errOut)
	}
	os.WriteFile(filepath.Join(home, "history"), []byte("typed before the key "+conversationWord+"\n"), 0o600)
	k2 := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(5)}
	out, errOut, code := runDir(t, ws, append(k2, "CHATCLI_ENCRYPTION_KEY_OLD="+b64Key(4)), "storage", "rekey")
	if code != 0 || !strings.Contains(errOut, filepath.Join(home, "checkpoints")) || !strings.Contains(errOut, filepath.Join(home, "history")) {
		t.Fatalf("rekey: exit %d\n%s\n%s", code, out, errOut)
	}
	out, errOut, code = runDir(t, ws, k2, "session", "rewind", "job", "--to", "1", "--code-only", "--yes")
	if code != 0 || !strings.Contains(out, "remove          made.txt") {
		t.Fatalf("rewind under the new key: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(ws, "made.txt")); err == nil {
		t.Fatal("made.txt is still there")
	}
	hist, _ := os.ReadFile(filepath.Join(home, "history"))
	if !seal.IsSealedLine(hist) || bytes.Contains(hist, []byte(conversationWord)) {
		t.Fatalf("history after rekey: %q", hist)
	}
	scanStore(t, home, conversationWord, func(string) bool { return false })
}
