package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

func b64Key(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)) }

func parsed(t *testing.T, s string) seal.Key {
	k, err := seal.ParseKey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// rekeyStore fills home with: two sessions sealed under old, one
// plaintext, one trashed sealed session, a journal sealed under old and a
// plaintext one.
func rekeyStore(t *testing.T, home string, old seal.Key) []string {
	t.Helper()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	hist := []message.Message{{Role: message.RoleUser, Content: "hi"}, {Role: message.RoleAssistant, Content: "yo"}}
	if err := st.Save("plain", &session.Session{History: hist}); err != nil {
		t.Fatal(err)
	}
	st.SetKey(old)
	for _, n := range []string{"a", "b", "gone"} {
		if err := st.Save(n, &session.Session{History: hist}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Trash("gone"); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, "transcripts")
	var ids []string
	for _, k := range []seal.Key{old, {}} {
		id := journal.NewID()
		j, _, err := journal.Open(dir, id, k)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Sync(hist, journal.ReasonSync); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// checkEachOpens reports whether the last of keys opens every session, trashed session
// and journal under home; it fails the test for a file no key opens.
func checkEachOpens(t *testing.T, home string, ids []string, keys ...seal.Key) (allLast bool) {
	t.Helper()
	allLast = true
	st, _ := session.Open(filepath.Join(home, "sessions"))
	for _, n := range []string{"plain", "a", "b"} {
		p, _ := st.Path(n)
		ok := -1
		for i, k := range keys {
			st.SetKey(k)
			if _, err := st.Load(n); err == nil {
				ok = i
			}
		}
		if ok < 0 {
			t.Fatalf("session %s opens with no key", n)
		}
		data, _ := os.ReadFile(p)
		allLast = allLast && ok == len(keys)-1 && session.IsSealedFile(data)
	}
	ok := -1
	for i, k := range keys {
		st.SetKey(k)
		if l, err := st.TrashList(); err == nil && len(l) == 1 && l[0].Err == nil {
			ok = i
		}
	}
	if ok < 0 {
		t.Fatal("the trashed session opens with no key")
	}
	allLast = allLast && ok == len(keys)-1
	for _, id := range ids {
		ok := -1
		for i, k := range keys {
			if m, _, w, err := journal.Messages(journal.Path(filepath.Join(home, "transcripts"), id), k); err == nil && len(w) == 0 && len(m) == 2 {
				ok = i
			}
		}
		if ok < 0 {
			t.Fatalf("journal %s opens with no key", id)
		}
		data, _ := os.ReadFile(journal.Path(filepath.Join(home, "transcripts"), id))
		allLast = allLast && ok == len(keys)-1 && !bytes.Contains(data, []byte(`"hi"`))
	}
	return allLast
}

func rekeyFactory(home string, env map[string]string) (*factory, *bytes.Buffer, *bytes.Buffer) {
	out, errb := &bytes.Buffer{}, &bytes.Buffer{}
	env["CHATCLI_HOME"] = home
	return &factory{streams: &ioStreams{In: strings.NewReader(""), Out: out, Err: errb}, getenv: func(k string) string { return env[k] }}, out, errb
}

// TestRekeyInterrupted stops the rekey after k files, for every k: each
// file then opens with the old key or the new one, and a second run
// finishes the job.
func TestRekeyInterrupted(t *testing.T) {
	oldS, newS := b64Key(1), b64Key(2)
	old, nw := parsed(t, oldS), parsed(t, newS)
	stop := errors.New("interrupted")
	defer func() { rekeyAfterFile = func(int) error { return nil } }()
	const files = 6
	for k := 1; k <= files; k++ {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			home := t.TempDir()
			ids := rekeyStore(t, home, old)
			env := map[string]string{"CHATCLI_ENCRYPTION_KEY": newS, "CHATCLI_ENCRYPTION_KEY_OLD": oldS}
			f, _, _ := rekeyFactory(home, env)
			rekeyAfterFile = func(done int) error {
				if done == k {
					return stop
				}
				return nil
			}
			if err := storageRekeyRun(&storageRekeyOptions{f: f}); !errors.Is(err, stop) {
				t.Fatalf("first run: %v", err)
			}
			checkEachOpens(t, home, ids, old, nw)
			rekeyAfterFile = func(int) error { return nil }
			f, out, errb := rekeyFactory(home, env)
			if err := storageRekeyRun(&storageRekeyOptions{f: f}); err != nil {
				t.Fatalf("rerun: %v\n%s", err, errb)
			}
			if !checkEachOpens(t, home, ids, old, nw) {
				t.Fatal("not every file is under the new key after the rerun")
			}
			noun := map[bool]string{true: "file", false: "files"}[files-k == 1]
			want := fmt.Sprintf("%d %s re-sealed, %d already under the new key, 0 failed", files-k, noun, k)
			if !strings.Contains(out.String(), want) {
				t.Fatalf("summary %q, want %q", out, want)
			}
		})
	}
}

func TestRekeyWrongOldKey(t *testing.T) {
	home := t.TempDir()
	old := parsed(t, b64Key(1))
	ids := rekeyStore(t, home, old)
	f, _, errb := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(2), "CHATCLI_ENCRYPTION_KEY_OLD": b64Key(3)})
	err := storageRekeyRun(&storageRekeyOptions{f: f})
	if !errors.Is(err, seal.ErrWrongKey) || !strings.Contains(err.Error(), "set CHATCLI_ENCRYPTION_KEY_OLD to the key that sealed them and run it again") {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(errb.String(), "wrong encryption key") {
		t.Fatalf("stderr: %s", errb)
	}
	// Each failed file is reported once, on stderr as it fails; the error
	// at the end counts them.
	if strings.Contains(err.Error(), "wrong encryption key") || !strings.Contains(err.Error(), "could not be re-sealed, each listed above") {
		t.Fatalf("the summary repeats the failures: %v", err)
	}
	checkEachOpens(t, home, ids, old, parsed(t, b64Key(2)))
	f, _, _ = rekeyFactory(home, map[string]string{})
	if err := storageRekeyRun(&storageRekeyOptions{f: f}); err == nil || !strings.Contains(err.Error(), "CHATCLI_ENCRYPTION_KEY is not set") {
		t.Fatalf("no key: %v", err)
	}
}

// TestRekeyKeepsADamagedJournalLine: a journal line torn by a crash does
// not stop the rekey; it is kept as it was and counted.
func TestRekeyKeepsADamagedJournalLine(t *testing.T) {
	home := t.TempDir()
	old := parsed(t, b64Key(1))
	ids := rekeyStore(t, home, old)
	p := journal.Path(filepath.Join(home, "transcripts"), ids[0])
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if err := os.WriteFile(p, append(data, first[:len(first)/2]...), 0o600); err != nil { // a crash mid-append
		t.Fatal(err)
	}
	f, out, errb := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(2), "CHATCLI_ENCRYPTION_KEY_OLD": b64Key(1)})
	if err := storageRekeyRun(&storageRekeyOptions{f: f}); err != nil {
		t.Fatal(err)
	}
	if want := ", 0 failed, 1 damaged journal line kept as it was"; !strings.Contains(out.String(), want) {
		t.Fatalf("summary %q, want %q", out, want)
	}
	if want := p + ":3: damaged line kept as it was"; !strings.Contains(errb.String(), want) {
		t.Fatalf("stderr %q, want %q", errb, want)
	}
	if m, _, w, err := journal.Messages(p, parsed(t, b64Key(2))); err != nil || len(m) != 2 || len(w) != 1 {
		t.Fatalf("%d messages, %v, %v", len(m), w, err)
	}
}

// TestRekeyLeavesNoTitleInTheListIndex: a plaintext store listed once (so
// its list index holds headers) keeps no title in plaintext once rekeyed.
func TestRekeyLeavesNoTitleInTheListIndex(t *testing.T) {
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	const title = "zebrafinch plans"
	doc := `{"version":2,"title":"` + title + `","chat_history":[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]}`
	if err := os.WriteFile(filepath.Join(st.Dir(), "plans.json"), []byte(doc), 0o600); err != nil { // no message_count: indexed
		t.Fatal(err)
	}
	if _, err := st.List(); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(filepath.Dir(st.Dir()), session.CacheDirName, "session-list.json")
	if data, err := os.ReadFile(idx); err != nil || !bytes.Contains(data, []byte(title)) {
		t.Fatalf("the list index was not written (%v): the test proves nothing", err)
	}
	f, _, _ := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(1)})
	if err := storageRekeyRun(&storageRekeyOptions{f: f}); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(idx); err == nil && bytes.Contains(data, []byte(title)) {
		t.Fatalf("the list index holds the title after rekey: %s", data)
	}
	if data, _ := os.ReadFile(filepath.Join(st.Dir(), "plans.json")); bytes.Contains(data, []byte(title)) {
		t.Fatal("the session was not sealed")
	}
}

// Each session's journal is re-sealed right before the session: a session
// file is read with its journal's tail, so an interrupted rekey leaves at
// most one pair on two keys.
func TestRekeyOrdersEachJournalBeforeItsSession(t *testing.T) {
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home}
	for _, name := range []string{"a", "b"} {
		mustRun(t, env, "", "-p", "hello "+name, "--session", name)
	}
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	targets, err := rekeyTargets(st, filepath.Join(home, "transcripts"), seal.Key{}, seal.Key{})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, tg := range targets {
		order = append(order, tg.path)
	}
	for i, name := range []string{"a", "b"} {
		h, err := st.StatFile(name)
		if err != nil || h.TranscriptID == "" {
			t.Fatalf("%s: %+v %v", name, h, err)
		}
		j := journal.Path(filepath.Join(home, "transcripts"), h.TranscriptID)
		p, _ := st.Path(name)
		if order[2*i] != j || order[2*i+1] != p {
			t.Fatalf("order %v: want %s's journal then its file at %d", order, name, 2*i)
		}
	}
}

// TestRekeyDropsTheSearchIndex: the search index holds the store's text
// sealed under the old key (or in plaintext); a rekey removes it, and the
// next search rebuilds it under the new key.
func TestRekeyDropsTheSearchIndex(t *testing.T) {
	home := t.TempDir()
	rekeyStore(t, home, parsed(t, b64Key(1)))
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Save("words", &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "zanzibar secret"}, {Role: message.RoleAssistant, Content: "ok"}}}); err != nil {
		t.Fatal(err)
	}
	st.SetKey(parsed(t, b64Key(1)))
	if _, err := index.Open(index.Options{Store: st, JournalDir: filepath.Join(home, "transcripts")}).Sync(); err != nil {
		t.Fatal(err)
	}
	f, _, errb := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(2), "CHATCLI_ENCRYPTION_KEY_OLD": b64Key(1)})
	if err := storageRekeyRun(&storageRekeyOptions{f: f}); err != nil {
		t.Fatalf("rekey: %v\n%s", err, errb)
	}
	if _, err := os.Stat(filepath.Join(index.Dir(st), "MANIFEST")); !os.IsNotExist(err) {
		t.Errorf("the index sealed under the old key is still there: %v", err)
	}
	f, out, errb := rekeyFactory(home, map[string]string{"CHATCLI_ENCRYPTION_KEY": b64Key(2)})
	if err := storageRekeyRun(&storageRekeyOptions{f: f}); err != nil || !strings.Contains(out.String(), "0 files re-sealed") {
		t.Errorf("second rekey: %v %q\n%s", err, out, errb)
	}
}
