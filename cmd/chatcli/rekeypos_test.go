package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// tailedSession writes session "long" under home through the engine,
// sealed under key (the zero Key: plaintext): a snapshot of its first
// turns, then turns only its journal holds (the process ends without the
// exit snapshot, as after a kill). It returns the number of messages.
func tailedSession(t *testing.T, home string, key seal.Key) int {
	t.Helper()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	st.SetKey(key)
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""), JournalDir: filepath.Join(home, "transcripts")})
	if err := e.Save("long", false); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if _, err := e.Turn(context.Background(), fmt.Sprint("question ", i), nil); err != nil {
			t.Fatal(err)
		}
	}
	if s, err := st.StatFile("long"); err != nil || s.Messages >= len(e.History()) {
		t.Fatalf("the file holds %d of %d messages (%v): no tail", s.Messages, len(e.History()), err)
	}
	return len(e.History())
}

// cli runs chatcli in-process with env and returns stdout and the error.
func cli(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	f, out, errb := rekeyFactory(env["CHATCLI_HOME"], env)
	defer f.close()
	cmd := newRootCmd(f, nil)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	if err != nil {
		err = fmt.Errorf("%w\n%s", err, errb)
	}
	return out.String(), err
}

// surfaces returns what `session list`, `session show`, `session search`
// and `session export` say of session "long": its message count in each,
// and the hits of its last prompt (the prompt and the reply quoting it).
func surfaces(t *testing.T, env map[string]string) (list, show, export, hits int) {
	t.Helper()
	out, err := cli(t, env, "session", "list", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var listed []struct{ Messages int }
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed) != 1 {
		t.Fatalf("session list: %q (%v)", out, err)
	}
	if out, err = cli(t, env, "session", "show", "long", "--json"); err != nil {
		t.Fatal(err)
	}
	var shown struct {
		History []json.RawMessage `json:"chat_history"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatalf("session show: %v", err)
	}
	if out, err = cli(t, env, "session", "export", "long", "jsonl", "-"); err != nil {
		t.Fatal(err)
	}
	export = strings.Count(out, "\n")
	if out, err = cli(t, env, "session", "search", `"question 11"`); err != nil {
		t.Fatal(err)
	}
	return listed[0].Messages, len(shown.History), export, strings.Count(out, "long #")
}

// TestEverySurfaceCountsTheTailThroughAnInterruptedRekey: a session whose
// journal holds turns its file does not is encrypted, rekeyed and
// decrypted, each run stopped after each file in turn (its journal first,
// then its file) and run again; listing, show, export and search give
// every message at each point.
func TestEverySurfaceCountsTheTailThroughAnInterruptedRekey(t *testing.T) {
	oldS, newS := b64Key(1), b64Key(2)
	old := parsed(t, oldS)
	stop := errors.New("interrupted")
	defer func() { rekeyAfterFile = func(int) error { return nil } }()
	newKey, oldKey := map[string]string{"CHATCLI_ENCRYPTION_KEY": newS}, map[string]string{"CHATCLI_ENCRYPTION_KEY": oldS}
	rekey := func(f *factory) error { return storageRekeyRun(&storageRekeyOptions{f: f}) }
	for _, c := range []struct {
		name   string
		sealed seal.Key
		run    func(*factory) error
		keys   map[string]string // the run's
		// during gives the keys the surfaces read with after the run
		// stopped after k files (nil: none opens both the session and
		// its journal until the run goes on); after, once it finished.
		during func(k int) map[string]string
		after  map[string]string
	}{
		{"encrypt", seal.Key{}, rekey, newKey, func(int) map[string]string { return newKey }, newKey},
		{"rekey", old, rekey, map[string]string{"CHATCLI_ENCRYPTION_KEY": newS, "CHATCLI_ENCRYPTION_KEY_OLD": oldS},
			func(k int) map[string]string {
				if k == 1 {
					return nil
				}
				return newKey
			}, newKey},
		{"decrypt", old, func(f *factory) error { return storageDecryptRun(&storageDecryptOptions{f: f, Yes: true}) }, oldKey,
			func(int) map[string]string { return oldKey }, nil},
	} {
		for k := 1; k <= 2; k++ { // the journal, then the session file
			t.Run(fmt.Sprint(c.name, "/", k), func(t *testing.T) {
				home := t.TempDir()
				want := tailedSession(t, home, c.sealed)
				env := func(m map[string]string) map[string]string {
					out := map[string]string{"CHATCLI_HOME": home}
					for k, v := range m {
						out[k] = v
					}
					return out
				}
				check := func(when string, keys map[string]string) {
					t.Helper()
					if list, show, export, hits := surfaces(t, env(keys)); list != want || show != want || export != want || hits != 2 {
						t.Fatalf("%s: list %d, show %d, export %d messages, search %d hits; want %d messages, 2 hits", when, list, show, export, hits, want)
					}
				}
				rekeyAfterFile = func(done int) error {
					if done == k {
						return stop
					}
					return nil
				}
				f, _, _ := rekeyFactory(home, env(c.keys))
				if err := c.run(f); !errors.Is(err, stop) {
					t.Fatalf("interrupted run: %v", err)
				}
				if keys := c.during(k); keys != nil {
					check(fmt.Sprintf("stopped after %d files", k), keys)
				}
				rekeyAfterFile = func(int) error { return nil }
				f, _, errb := rekeyFactory(home, env(c.keys))
				if err := c.run(f); err != nil {
					t.Fatalf("rerun: %v\n%s", err, errb)
				}
				check("finished", c.after)
			})
		}
	}
}
