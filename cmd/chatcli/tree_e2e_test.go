package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestForkAtACheckpoint(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	if _, errOut, code := run(t, env, "one\ntwo\nthree\n/session save src\n"); code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	// Checkpoint 2 (session rewind --list numbers them, 1 the newest) is
	// the conversation before "two".
	out, errOut, code := run(t, env, "", "session", "fork", "src", "early", "--checkpoint", "2")
	if code != 0 || !strings.Contains(out, `Forked "src" into "early" (2 messages)`) {
		t.Fatalf("fork --checkpoint 2: exit %d\n%s\n%s", code, out, errOut)
	}
	show, _, _ := run(t, env, "", "session", "show", "early")
	if !strings.Contains(show, "one") || strings.Contains(show, "two") {
		t.Fatalf("early holds the conversation before two only:\n%s", show)
	}
	if show, _, _ := run(t, env, "", "session", "show", "src"); !strings.Contains(show, "three") {
		t.Fatalf("src changed:\n%s", show)
	}
	// The fork keeps the checkpoint it was made at and the older one.
	if out, _, _ := run(t, env, "", "session", "rewind", "early", "--list", "--json"); strings.Count(out, `"number"`) != 2 {
		t.Fatalf("the fork's checkpoints:\n%s", out)
	}
	out, errOut, code = run(t, env, "/session fork mid --checkpoint 1\n/session status\n", "--resume", "src")
	if code != 0 || !strings.Contains(out, `at checkpoint 1 into "mid" (4 messages)`) || !strings.Contains(out, `Bound to session "mid" (4 messages)`) {
		t.Fatalf("/session fork --checkpoint: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, bad := range [][]string{
		{"session", "fork", "src", "x", "--checkpoint", "9"},
		{"session", "fork", "src", "x", "--checkpoint", "0"},
		{"session", "fork", "src", "x", "--checkpoint", "1", "--at", "1"},
		{"session", "fork", "src", "early", "--checkpoint", "1"},
	} {
		if _, errOut, code := run(t, env, "", bad...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", bad, code, errOut, exitUsage)
		}
	}
	if _, errOut, _ := run(t, env, "", "session", "fork", "src", "x", "--checkpoint", "9"); !strings.Contains(errOut,
		"no such checkpoint: 9 (session \"src\" has 3); `chatcli session rewind src --list` shows them\n") {
		t.Errorf("a missing checkpoint's error says where they are listed: %s", errOut)
	}
	if _, errOut, code := run(t, env, "/session fork y --checkpoint two\n", "--resume", "src"); code != exitUsage || !strings.Contains(errOut, `--checkpoint "two"`) {
		t.Errorf("/session fork --checkpoint two: exit %d %s", code, errOut)
	}
}

// treeNode is one element of `session tree --json`.
type treeNode struct {
	Name    string `json:"name"`
	Lineage *struct {
		Parent string `json:"parent"`
		At     int    `json:"at"`
		Kind   string `json:"kind"`
	} `json:"lineage"`
	Parent     string     `json:"parent"`
	ParentGone bool       `json:"parent_gone"`
	Children   []treeNode `json:"children"`
}

func TestSessionTreeShowsForksUnderTheirParentsAfterRenames(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	if _, errOut, code := run(t, env, "one\ntwo\nthree\n/session save src\n"); code != 0 {
		t.Fatalf("%d %s", code, errOut)
	}
	for _, args := range [][]string{
		{"session", "fork", "src", "early", "--at", "2"},
		{"session", "fork", "early", "early-2"},
		{"session", "fork", "src", "whole"},
		{"session", "rename", "src", "main"}, // the forks still find it
	} {
		if out, errOut, code := run(t, env, "", args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	// A session written before lineage existed (or by ChatCLI) is a root.
	old := `{"version":2,"chat_history":[{"role":"user","content":"from before"},{"role":"assistant","content":"ok"}]}`
	if err := os.WriteFile(filepath.Join(home, "sessions", "old.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, env, "", "session", "tree")
	if code != 0 {
		t.Fatalf("tree: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"main · 6 messages · \"one\"\n",
		"├─ early · fork at 2 of \"src\" (renamed since) · 2 messages",
		"│  └─ early-2 · fork at 2 · 2 messages",
		"└─ whole · fork at 6 of \"src\" (renamed since) · 6 messages",
		"old · 2 messages · \"from before\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("tree lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = run(t, env, "", "session", "tree", "early-2", "--json")
	var roots []treeNode
	if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
		t.Fatalf("tree early-2 --json: exit %d\n%s\n%s", code, out, errOut)
	}
	if len(roots) != 1 || roots[0].Name != "main" || roots[0].Lineage != nil || len(roots[0].Children) != 2 {
		t.Fatalf("the family of early-2 is main's: %s", out)
	}
	early := roots[0].Children[0]
	if early.Name != "early" || early.Parent != "main" || early.Lineage.Parent != "src" || early.Lineage.At != 2 ||
		early.Lineage.Kind != "fork" || len(early.Children) != 1 || early.Children[0].Name != "early-2" {
		t.Fatalf("early: %+v", early)
	}
	// A parent moved to the trash leaves its forks as roots that name it.
	if _, errOut, code := run(t, env, "", "session", "delete", "main", "--yes"); code != 0 {
		t.Fatalf("delete: %s", errOut)
	}
	out, _, _ = run(t, env, "", "session", "tree")
	if !strings.Contains(out, "\nearly · fork at 2 of \"src\" (no longer in the store) · 2 messages") &&
		!strings.HasPrefix(out, "early · fork at 2 of \"src\" (no longer in the store)") {
		t.Fatalf("an orphan fork:\n%s", out)
	}
	if _, _, code := run(t, env, "", "session", "tree", "nope"); code != exitNotFound {
		t.Fatalf("tree of a missing session: exit %d", code)
	}
}
