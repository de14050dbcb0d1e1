package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// tmuxSession drives the REPL on a real terminal through tmux.
type tmuxSession struct {
	t    *testing.T
	name string
	dir  string   // the REPL's working directory; "" is the test's
	args []string // chatcli's arguments; none starts the REPL
}

func (s tmuxSession) run(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-L", s.name}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// home makes the CHATCLI_HOME of the session's REPL. At cleanup the tmux
// server is killed first; the REPL then saves on SIGHUP, so the folder is
// removed only once nothing writes in it any more (retried for 10 s).
func (s tmuxSession) home() string {
	dir, err := os.MkdirTemp("", "chatcli-tmux-")
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() {
		exec.Command("tmux", "-L", s.name, "kill-server").Run()
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := os.RemoveAll(dir)
			if err == nil || time.Now().After(deadline) {
				if err != nil {
					s.t.Errorf("remove %s: %v", dir, err)
				}
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	return dir
}

// needTmux skips the test when tmux is missing, except under CI.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is missing: .ci/run installs it")
		}
		t.Skip("tmux is not installed; .ci/run installs it for CI")
	}
}

// start runs the REPL in a new tmux session of cols×rows cells, with a
// fresh home (HOME and CHATCLI_HOME) and env (KEY=VALUE each; a later
// CHATCLI_HOME wins) on top of a minimal environment, with s.args, and
// returns the home.
func (s tmuxSession) start(cols, rows int, env ...string) string {
	home := s.home()
	extra := ""
	for _, w := range append(append(env, binary), s.args...) { // env(1): settings, then the command
		extra += fmt.Sprintf(" %q", w)
	}
	command := fmt.Sprintf("env -i PATH=%q HOME=%q CHATCLI_HOME=%q TERM=xterm-256color%s; sleep 30",
		os.Getenv("PATH"), home, home, extra)
	args := []string{"new-session", "-d", "-s", s.name, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows)}
	if s.dir != "" {
		args = append(args, "-c", s.dir)
	}
	s.run(append(args, command)...)
	return home
}

func (s tmuxSession) screen() string { return s.run("capture-pane", "-p", "-t", s.name) }

// waitForCount polls the screen until want is on it n times or more.
func (s tmuxSession) waitForCount(want string, n int) string {
	deadline := time.Now().Add(60 * time.Second)
	for {
		scr := s.screen()
		if strings.Count(scr, want) >= n {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q %d times:\n%s", want, n, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitFor polls the screen until it contains want, and every one of also
// (one screen showing them all: a view drawn in several steps is waited
// for whole).
func (s tmuxSession) waitFor(want string, also ...string) string {
	deadline := time.Now().Add(60 * time.Second) // generous: CI machines are shared
	for {
		scr := s.screen()
		all := strings.Contains(scr, want)
		for _, a := range also {
			all = all && strings.Contains(scr, a)
		}
		if all {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q (with %q):\n%s", want, also, scr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestEscEscOpensTheRewindMenuOnATerminal types into the real line editor:
// two prompts, then Esc twice at the empty prompt opens the rewind menu.
func TestEscEscOpensTheRewindMenuOnATerminal(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-test-%d", os.Getpid())}
	s.start(120, 40)
	s.waitFor("offline>")
	s.run("send-keys", "-t", s.name, "first question", "Enter")
	s.waitFor("reply #1 to: first question")
	s.run("send-keys", "-t", s.name, "second question", "Enter")
	s.waitFor("reply #2 to: second question")
	s.run("send-keys", "-t", s.name, "Escape")
	s.run("send-keys", "-t", s.name, "Escape")
	scr := s.waitFor("Rewind to [1-2]")
	if !strings.Contains(scr, "[1] ") || !strings.Contains(scr, "2 msgs  second question") {
		t.Fatalf("menu:\n%s", scr)
	}
	s.run("send-keys", "-t", s.name, "1", "Enter")
	s.waitFor(`before "second question": 2 messages`)
	s.run("send-keys", "-t", s.name, "C-d")
	s.waitFor("Conversation saved as")
}

// TestEscCancelsTheSummaryRequest: Esc during /compact's request to the
// model cancels it and leaves the history as it was.
func TestEscCancelsTheSummaryRequest(t *testing.T) {
	needTmux(t)
	summaryAsked := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		if strings.Contains(string(body), "## Files Read") { // the summary request: hang
			fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"## Key"}}]}`+"\n\n")
			w.(http.Flusher).Flush()
			summaryAsked <- struct{}{}
			<-r.Context().Done()
			return
		}
		turns := strings.Count(string(body), `"role":"user"`) - 1 // this prompt's number
		fmt.Fprintf(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"noted [%d], %s"}}]}`+"\n\n", turns, strings.Repeat("details ", 40))
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-esc-%d", os.Getpid())}
	s.start(150, 50, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	for i := range 12 {
		s.run("send-keys", "-t", s.name, fmt.Sprintf("q%02d about the parser", i), "Enter")
		s.waitFor(fmt.Sprintf("q%02d about the parser", i)) // the finished line
		s.waitFor(fmt.Sprintf("[%d]", i))                   // its reply: see the server
	}
	s.run("send-keys", "-t", s.name, "/session save s", "Enter")
	s.waitFor(`Saved 24 messages`)
	s.run("send-keys", "-t", s.name, "/compact", "Enter")
	select {
	case <-summaryAsked:
	case <-time.After(20 * time.Second):
		t.Fatalf("the summary request never came:\n%s", s.screen())
	}
	s.run("send-keys", "-t", s.name, "Escape")
	s.waitFor("compaction cancelled; the history is unchanged")
	s.run("send-keys", "-t", s.name, "/session status", "Enter")
	s.waitFor(`(24 messages)`)
}
