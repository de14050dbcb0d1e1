package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ESessionSearchIndex drives `chatcli session search` through the
// binary: the index appears under CHATCLI_HOME/index, --json gives the
// schema, forks are one hit, filters narrow, bad flags name themselves,
// and deleting index/ gives the same answer.
func TestE2ESessionSearchIndex(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	mustRun(t, env, "", "-p", "the deploy freeze starts friday", "--session", "ops")
	mustRun(t, env, "", "session", "fork", "ops", "ops-copy")
	mustRun(t, env, "", "-p", "ภาษาไทยเป็นภาษาที่สวยงาม", "--session", "th")
	search := func(args ...string) []searchEntry {
		t.Helper()
		var out []searchEntry
		if err := json.Unmarshal([]byte(mustRun(t, env, "", append([]string{"session", "search", "--json"}, args...)...)), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	hits := search(`"deploy freeze"`, "--role", "user")
	if len(hits) != 1 || hits[0].Session != "ops" || hits[0].Position != 1 || len(hits[0].Forks) != 1 ||
		hits[0].Forks[0] != "ops-copy" || !strings.Contains(hits[0].Snippet, "deploy freeze") || hits[0].At.IsZero() {
		t.Fatalf("hits %+v, want ops#1 also in ops-copy", hits)
	}
	if _, err := os.Stat(filepath.Join(home, "index", "MANIFEST")); err != nil {
		t.Fatalf("no index under CHATCLI_HOME: %v", err)
	}
	if hits := search("สวยงาม", "--role", "user"); len(hits) != 1 || hits[0].Session != "th" {
		t.Fatalf("a Thai word inside a sentence: %+v", hits)
	}
	if hits := search("freeze -friday"); len(hits) != 0 {
		t.Fatalf("-friday kept %+v", hits)
	}
	if hits := search("friday", "--session", "th"); len(hits) != 0 {
		t.Fatalf("--session th kept %+v", hits)
	}
	if hits := search("friday", "--since", "1d", "--role", "assistant"); len(hits) != 1 {
		t.Fatalf("--since 1d --role assistant: %+v", hits)
	}
	dir := t.TempDir()
	if _, errOut, code := runAt(t, dir, env, "", "-p", "the deploy freeze of a project", "--session", "proj"); code != 0 {
		t.Fatalf("-p in %s: exit %d\n%s", dir, code, errOut)
	}
	if hits := search("deploy", "--folder", dir); len(hits) == 0 || hits[0].Session != "proj" || len(hits) != 2 {
		t.Fatalf("--folder %s: %+v, want the two messages of proj", dir, hits)
	}
	if hits := search("deploy", "--folder", t.TempDir()); len(hits) != 0 {
		t.Fatalf("--folder of a folder no session was used in: %+v, want none", hits)
	}
	text := mustRun(t, env, "", "session", "search", "deploy")
	if err := os.RemoveAll(filepath.Join(home, "index")); err != nil {
		t.Fatal(err)
	}
	if again := mustRun(t, env, "", "session", "search", "deploy"); again != text {
		t.Fatalf("after deleting index/:\n%s\nbefore:\n%s", again, text)
	}
	for _, tc := range []struct{ flag, value string }{{"--since", "yesterday"}, {"--role", "robot"}} {
		_, errOut, code := run(t, env, "", "session", "search", "x", tc.flag, tc.value)
		if code != 2 || !strings.Contains(errOut, tc.flag) || !strings.Contains(errOut, tc.value) {
			t.Errorf("%s %s: exit %d\n%s", tc.flag, tc.value, code, errOut)
		}
	}
}

// TestE2ESearchWithoutTheKeyLeavesTheSealedIndex: `session search`
// without the key, on a store whose index is sealed, fails as every
// sealed file does without the key (exit 4, naming CHATCLI_ENCRYPTION_KEY)
// and leaves index/ byte for byte as it was: it used to replace the
// sealed index with a plaintext one of the plaintext sessions alone.
func TestE2ESearchWithoutTheKeyLeavesTheSealedIndex(t *testing.T) {
	home := t.TempDir()
	sealed := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + b64Key(5)}
	plain := []string{"CHATCLI_HOME=" + home}
	mustRun(t, sealed, "", "-p", sealMarker+" in a sealed turn", "--session", "zoo")
	if out := mustRun(t, sealed, "", "session", "search", sealMarker); !strings.Contains(out, "zoo") {
		t.Fatalf("search with the key:\n%s", out)
	}
	before := snapshot(t, filepath.Join(home, "index"))
	out, errOut, code := run(t, plain, "", "session", "search", sealMarker)
	if code != 4 || !strings.Contains(errOut, "CHATCLI_ENCRYPTION_KEY") || !strings.Contains(errOut, "search index") {
		t.Fatalf("search without the key: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	after := snapshot(t, filepath.Join(home, "index"))
	if len(after) != len(before) {
		t.Fatalf("index/ held %d files, now %d", len(before), len(after))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s changed by a search without the key", p)
		}
	}
	if out, errOut, code := run(t, sealed, "", "session", "search", sealMarker); code != 0 || !strings.Contains(out, "zoo") || strings.Contains(errOut, "rebuilt") {
		t.Fatalf("search with the key again: exit %d\n%s\nstderr:\n%s", code, out, errOut)
	}
}
