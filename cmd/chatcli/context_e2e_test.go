package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// bodyLogServer is a chat-completions server (SSE streaming) that logs
// each request's messages, "role: content" per message, and answers
// "ok".
func bodyLogServer(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var log []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request: %v", err)
		}
		var b strings.Builder
		for _, m := range req.Messages {
			fmt.Fprintf(&b, "%s: %v\n", m.Role, m.Content)
		}
		mu.Lock()
		log = append(log, b.String())
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"}}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), log...) }
}

// runOK runs the binary in dir and fails on a nonzero exit.
func runOK(t *testing.T, dir string, env []string, stdin string, args ...string) (string, string) {
	t.Helper()
	out, errOut, code := runAt(t, dir, env, stdin, args...)
	if code != 0 {
		t.Fatalf("chatcli %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errOut)
	}
	return out, errOut
}

// lastRequest is the newest logged request; it fails when there is none
// after the n seen before.
func lastRequest(t *testing.T, reqs func() []string, n int) string {
	t.Helper()
	got := reqs()
	if len(got) <= n {
		t.Fatalf("no request after the first %d", n)
	}
	return got[len(got)-1]
}

// A context attached and saved reaches the requests of a new process that
// loads the session, and of a fork; once deleted it is skipped with a
// note and the request goes out without it.
func TestAttachedContextFollowsTheSessionAcrossProcesses(t *testing.T) {
	srv, reqs := bodyLogServer(t)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "design.md"), []byte("the CTXMARKER-42 service listens on 7000\n"), 0o600)
	os.WriteFile(filepath.Join(work, "debug.log"), []byte("LOGMARKER\n"), 0o600)
	os.WriteFile(filepath.Join(work, ".gitignore"), []byte("*.log\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}

	out, _ := runOK(t, "", env, "", "context", "create", "proj", work)
	if !strings.Contains(out, `Created context "proj": 2 files`) { // design.md and .gitignore
		t.Fatalf("create: %s", out)
	}
	if out, _ = runOK(t, "", env, "", "context", "show", "proj"); !strings.Contains(out, "in 2 chunks") || !strings.Contains(out, "chunk 1\n") {
		t.Fatalf("show: %s", out)
	}
	runOK(t, "", env, "/context attach proj\nhello\n/session save s1\n")
	if r := lastRequest(t, reqs, 0); !strings.Contains(r, "CTXMARKER-42") || strings.Contains(r, "LOGMARKER") {
		t.Fatalf("first request:\n%s", r)
	}
	raw, _ := os.ReadFile(filepath.Join(home, "sessions", "s1.json"))
	if !strings.Contains(string(raw), `"attachments":[{"context_id":"proj"`) || strings.Contains(string(raw), "CTXMARKER") {
		t.Fatalf("session file:\n%s", raw)
	}

	n := len(reqs())
	runOK(t, "", env, "", "-p", "again", "--session", "s1")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "CTXMARKER-42") {
		t.Fatalf("request after loading in a new process lacks the context:\n%s", r)
	}

	runOK(t, "", env, "/session load s1\n/session fork s2\n")
	n = len(reqs())
	runOK(t, "", env, "", "-p", "on the fork", "--session", "s2")
	if r := lastRequest(t, reqs, n); !strings.Contains(r, "CTXMARKER-42") {
		t.Fatalf("the fork lost the attachment:\n%s", r)
	}

	runOK(t, "", env, "", "context", "delete", "proj", "--yes")
	n = len(reqs())
	_, errOut := runOK(t, "", env, "", "-p", "after delete", "--session", "s1")
	r := lastRequest(t, reqs, n)
	if strings.Contains(r, "CTXMARKER-42") || !strings.Contains(r, "after delete") {
		t.Fatalf("request after the delete:\n%s", r)
	}
	if !strings.Contains(errOut, `attached context "proj" skipped`) {
		t.Fatalf("no note about the missing context:\n%s", errOut)
	}
}

// SOUL.md in the working folder reaches every request as system content
// and is never stored: neither `session show` nor the file holds it.
func TestSoulFileReachesEveryRequestAndIsNeverStored(t *testing.T) {
	srv, reqs := bodyLogServer(t)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "SOUL.md"), []byte("You are SOULMARK-9, terse.\n"), 0o600)
	os.WriteFile(filepath.Join(home, "SOUL.md"), []byte("HOMESOUL loses to the workspace\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	runOK(t, work, env, "one\ntwo\nthree\n/session save b\n")
	got := reqs()
	if len(got) != 3 {
		t.Fatalf("%d requests", len(got))
	}
	for i, r := range got {
		if !strings.HasPrefix(r, "system: Bootstrap files") || !strings.Contains(r, "SOULMARK-9") || strings.Contains(r, "HOMESOUL") {
			t.Fatalf("request %d:\n%s", i, r)
		}
	}
	for _, args := range [][]string{{"session", "show", "b"}, {"session", "show", "b", "--json"}} {
		if out, _ := runOK(t, work, env, "", args...); strings.Contains(out, "SOULMARK") || !strings.Contains(out, "three") {
			t.Fatalf("%q:\n%s", args, out)
		}
	}
	out, _ := runOK(t, work, env, "/context\n")
	if !strings.Contains(out, filepath.Join(work, "SOUL.md")) {
		t.Fatalf("/context does not list the loaded file:\n%s", out)
	}
}

// A note saved in one session reaches a request of a new session in
// another process.
func TestMemoryReachesANewSessionInAnotherProcess(t *testing.T) {
	srv, reqs := bodyLogServer(t)
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out, _ := runOK(t, "", env, "hi\n/memory save the user deploys with MEMMARK-3\n/session save first\n")
	if !strings.Contains(out, "Saved note 1 to memory") {
		t.Fatalf("%s", out)
	}
	runOK(t, "", env, "", "-p", "fresh start")
	if r := lastRequest(t, reqs, 1); !strings.Contains(r, "MEMMARK-3") || strings.Contains(r, "hi\n") {
		t.Fatalf("new session's request:\n%s", r)
	}
	out, _ = runOK(t, "", env, "", "memory", "list")
	if !strings.Contains(out, "1  ") || !strings.Contains(out, "MEMMARK-3") {
		t.Fatalf("memory list:\n%s", out)
	}
	if out, _ = runOK(t, "", env, "", "context"); !strings.Contains(out, "Memory: 1 note (") {
		t.Fatalf("context status counts the note wrong:\n%s", out)
	}
	runOK(t, "", env, "", "memory", "forget", "1")
	runOK(t, "", env, "", "-p", "after forget")
	if r := lastRequest(t, reqs, 2); strings.Contains(r, "MEMMARK-3") {
		t.Fatalf("a forgotten note is still sent:\n%s", r)
	}
}

// With a key set no file under contexts/ or memory/ holds the markers.
func TestSealedContextsAndMemoryHoldNoPlaintext(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "plan.md"), []byte("PLANMARKER-77 ships friday\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + strings.Repeat("K", 43) + "="}
	runOK(t, "", env, "", "context", "create", "plan", work)
	runOK(t, "", env, "", "memory", "save", "NOTEMARKER-55")
	if out, _ := runOK(t, "", env, "", "memory", "show"); !strings.Contains(out, "NOTEMARKER-55") {
		t.Fatalf("memory show with the key:\n%s", out)
	}
	scanned := 0
	for _, sub := range []string{"contexts", "memory"} {
		filepath.WalkDir(filepath.Join(home, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, _ := os.ReadFile(p)
			scanned++
			for _, m := range []string{"PLANMARKER", "NOTEMARKER", "plan.md"} {
				if bytes.Contains(data, []byte(m)) {
					t.Errorf("%s holds %q in plaintext", p, m)
				}
			}
			return nil
		})
	}
	if scanned < 2 {
		t.Fatalf("scanned %d files", scanned)
	}
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "", "memory", "list"); code != 4 || !strings.Contains(errOut, "notes.json") {
		t.Fatalf("without the key: exit %d: %s", code, errOut)
	}
}

// storage rekey re-seals contexts and memory too: afterwards they open
// with the new key only.
func TestRekeyResealsContextsAndMemory(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "a.md"), []byte("REKEYMARKER\n"), 0o600)
	oldKey, newKey := strings.Repeat("C", 43)+"=", strings.Repeat("D", 43)+"="
	oldEnv := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + oldKey}
	newEnv := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + newKey}
	runOK(t, "", oldEnv, "", "context", "create", "a", work)
	runOK(t, "", oldEnv, "", "memory", "save", "NOTE-REKEY")
	out, _ := runOK(t, "", append(newEnv, "CHATCLI_ENCRYPTION_KEY_OLD="+oldKey), "", "storage", "rekey")
	if !strings.Contains(out, "2 files re-sealed") {
		t.Fatalf("rekey: %s", out)
	}
	if out, _ := runOK(t, "", newEnv, "", "memory", "list"); !strings.Contains(out, "NOTE-REKEY") {
		t.Fatalf("memory under the new key: %s", out)
	}
	runOK(t, "", newEnv, "", "context", "show", "a")
	if _, errOut, code := run(t, oldEnv, "", "context", "show", "a"); code != 4 {
		t.Fatalf("the old key still opens the context: exit %d %s", code, errOut)
	}
}

// storage decrypt writes contexts, memory and the input history back as
// plaintext too: afterwards they open without the key.
func TestDecryptWritesContextsMemoryAndHistoryAsPlaintext(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "a.md"), []byte("DECRYPTMARKER\n"), 0o600)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + strings.Repeat("E", 43) + "="}
	plain := []string{"CHATCLI_HOME=" + home}
	runOK(t, "", env, "", "context", "create", "a", work)
	runOK(t, "", env, "", "memory", "save", "NOTE-DECRYPT")
	history := filepath.Join(home, "history")
	os.WriteFile(history, []byte("HISTLINE\n"), 0o600)
	runOK(t, "", env, "", "storage", "rekey")
	if data, _ := os.ReadFile(history); bytes.Contains(data, []byte("HISTLINE")) {
		t.Fatalf("rekey left the history plaintext: %q", data)
	}
	if out, _ := runOK(t, "", env, "", "storage", "decrypt", "--yes"); !strings.Contains(out, "3 files written as plaintext") {
		t.Fatalf("decrypt: %s", out)
	}
	if data, _ := os.ReadFile(history); string(data) != "HISTLINE\n" {
		t.Fatalf("history after decrypt: %q", data)
	}
	if out, _ := runOK(t, "", plain, "", "memory", "list"); !strings.Contains(out, "NOTE-DECRYPT") {
		t.Fatalf("memory without the key: %s", out)
	}
	if out, _ := runOK(t, "", plain, "", "context", "show", "a"); !strings.Contains(out, "a.md") {
		t.Fatalf("context without the key: %s", out)
	}
	if out, _ := runOK(t, "", env, "", "storage", "decrypt", "--yes"); !strings.Contains(out, "0 files written as plaintext, 3 already plaintext") {
		t.Fatalf("decrypt again: %s", out)
	}
}
