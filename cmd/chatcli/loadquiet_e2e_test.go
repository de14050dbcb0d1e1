package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadAndForkLeaveTheSourceJournalAlone checks that loading a session
// in the REPL and forking it headlessly write nothing to its journal: a
// sync that changes neither the history nor the checkpoints appends no
// record, so the session's updated_at (which orders `session list` and
// picks `-c`) does not move.
func TestLoadAndForkLeaveTheSourceJournalAlone(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	for _, p := range []string{"one", "two"} {
		if _, errs, code := run(t, env, "", "-p", p, "--session", "src"); code != 0 {
			t.Fatalf("-p %s: exit %d\n%s", p, code, errs)
		}
	}
	journals, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
	if len(journals) != 1 {
		t.Fatalf("journals %v", journals)
	}
	before, err := os.ReadFile(journals[0])
	if err != nil {
		t.Fatal(err)
	}
	updated := func() string {
		out, errs, code := run(t, env, "", "session", "list", "--json")
		if code != 0 {
			t.Fatalf("session list: exit %d\n%s", code, errs)
		}
		var rows []struct {
			Name      string `json:"name"`
			UpdatedAt string `json:"updated_at"`
		}
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("session list --json: %v\n%s", err, out)
		}
		for _, r := range rows {
			if r.Name == "src" {
				return r.UpdatedAt
			}
		}
		t.Fatalf("src not listed:\n%s", out)
		return ""
	}
	was := updated()
	if _, errs, code := run(t, env, "/session load src\n"); code != 0 {
		t.Fatalf("REPL load: exit %d\n%s", code, errs)
	}
	if _, errs, code := run(t, env, "", "session", "fork", "src", "copy"); code != 0 {
		t.Fatalf("session fork: exit %d\n%s", code, errs)
	}
	after, err := os.ReadFile(journals[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, before) {
		t.Fatalf("the journal grew by %d bytes:\n%s", len(after)-len(before), after[len(before):])
	}
	if now := updated(); now != was {
		t.Fatalf("src's updated_at moved from %s to %s", was, now)
	}
}
