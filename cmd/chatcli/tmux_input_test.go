package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPastedCodeRoundTripsIntoTheSession pastes code (indentation, blank
// lines, tabs) into the editor on a real terminal with bracketed paste, as
// a terminal sends it (tmux paste-buffer -p turns each line feed into a
// carriage return), and checks that the saved messages equal the pastes.
// Alt+Enter makes a newline; a paste that has tabs shows as its label.
func TestPastedCodeRoundTripsIntoTheSession(t *testing.T) {
	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-paste-%d", os.Getpid())}
	home := s.start(120, 40)
	s.waitFor("offline>")
	python := "def f():\n    x = 1\n\n    return x\n\n\nprint(f())"
	goCode := "func main() {\n\tfmt.Println(\"olá\")\n}\n"
	s.run("send-keys", "-t", s.name, "review this:", "M-Enter")
	s.run("set-buffer", "-b", "py", python)
	s.run("paste-buffer", "-p", "-b", "py", "-t", s.name)
	s.waitFor("print(f())")
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitFor("reply #1")
	// The next prompt asks for bracketed paste when it starts: paste once
	// it is drawn, or tmux sends the lines bare.
	s.waitFor("print(f())\noffline>")
	s.run("set-buffer", "-b", "go", goCode)
	s.run("paste-buffer", "-p", "-b", "go", "-t", s.name)
	s.waitFor("[pasted 3 lines]") // three lines, the last ended by its line feed
	s.run("send-keys", "-t", s.name, "Enter")
	s.waitFor("reply #2")
	s.run("send-keys", "-t", s.name, "/session save pasted", "Enter")
	s.waitFor(`Saved 4 messages`)
	data, err := os.ReadFile(filepath.Join(home, "sessions", "pasted.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if got, want := d.ChatHistory[0].Content, "review this:\n"+python; got != want {
		t.Errorf("first message %q, want %q", got, want)
	}
	if got := d.ChatHistory[2].Content; got != goCode {
		t.Errorf("second message %q, want %q", got, goCode)
	}
}

// TestSpinnerWhileWaitingForTheFirstToken: a server that waits 3 s before
// its first token; the terminal shows the spinner with the seconds
// elapsed, and it is gone once the reply's text arrives.
func TestSpinnerWhileWaitingForTheFirstToken(t *testing.T) {
	needTmux(t)
	srv := slowServer(t, 3*time.Second, "the answer arrived")
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-spin-%d", os.Getpid())}
	s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "slow question", "Enter")
	s.waitFor("waiting for the model… 1s")
	scr := s.waitFor("the answer arrived")
	if strings.Contains(scr, "waiting for the model") {
		t.Fatalf("the spinner is still on screen after the text arrived:\n%s", scr)
	}
}

// TestPermissionTakesOneKey: in agent mode on a terminal, the question
// before a command is answered by pressing y alone, and the command runs.
func TestPermissionTakesOneKey(t *testing.T) {
	needTmux(t)
	ws := goWorkspace(t)
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"c_wc", "run_command", map[string]string{"command": "wc -l a.go > counted.txt"}}}},
		{Text: "Counted the lines."},
	}, nil)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-permit-%d", os.Getpid()), dir: ws}
	s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "/agent count the lines", "Enter")
	s.waitFor("[a]lways for this session")
	s.run("send-keys", "-t", s.name, "y")
	s.waitFor("Counted the lines.")
	if _, err := os.Stat(filepath.Join(ws, "counted.txt")); err != nil {
		t.Fatalf("the command did not run after y: %v\n%s", err, s.screen())
	}
}

// TestSpinnerWhileAToolRuns: in agent mode on a terminal, a command that
// takes 3 s shows the spinner with the tool's name while it runs, in the
// REPL and with -p.
func TestSpinnerWhileAToolRuns(t *testing.T) {
	needTmux(t)
	for _, oneShot := range []bool{false, true} {
		srv := scriptServer(t, []scriptReply{
			{Calls: []scriptCall{{"c_sleep", "run_command", map[string]string{"command": "sleep 3"}}}},
			{Text: "Slept well."},
		}, nil)
		s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-toolspin-%v-%d", oneShot, os.Getpid()), dir: t.TempDir(),
			args: []string{"--agent-auto-exec"}}
		if oneShot {
			s.args = append(s.args, "--agent", "-p", "sleep a while")
		}
		s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
		if !oneShot {
			s.waitFor("m>")
			s.run("send-keys", "-t", s.name, "/agent sleep a while", "Enter")
		}
		s.waitFor("running run_command… 1s")
		if scr := s.waitFor("Slept well."); strings.Contains(scr, "running run_command") {
			t.Fatalf("the spinner is still on screen after the tool ran:\n%s", scr)
		}
	}
}

// slowServer streams text as one chat-completions SSE chunk after wait,
// its headers sent at once: a model slow to its first token.
func slowServer(t *testing.T, wait time.Duration, text string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.(http.Flusher).Flush()
		time.Sleep(wait)
		part, _ := json.Marshal(text)
		fmt.Fprintf(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":%s}}]}`+"\n\n", part)
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}
