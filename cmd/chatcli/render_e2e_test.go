package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// markdownReply is what markdownServer streams, in pieces that cut
// through the Markdown's blocks.
const markdownReply = "Here is **the fix**:\n\n```go\nfunc main() {\n\tfmt.Println(\"ok\")\n}\n```\n\n| col | n |\n|-----|--:|\n| a | 10 |\n"

// markdownServer streams markdownReply over the chat-completions SSE wire
// format, seven bytes a chunk.
func markdownServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for s := markdownReply; s != ""; {
			n := min(7, len(s))
			part, _ := json.Marshal(s[:n])
			s = s[n:]
			fmt.Fprintf(w, "data: {\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", part)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: {\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRepliesAreRenderedOnATerminalAndPlainOnAPipe: the same reply shows
// highlighted code and an aligned table in the REPL on a terminal, and
// comes out byte for byte as the model sent it through a pipe.
func TestRepliesAreRenderedOnATerminalAndPlainOnAPipe(t *testing.T) {
	srv := markdownServer(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, code := run(t, env, "show me\n")
	if code != 0 || out != markdownReply+"\n" {
		t.Fatalf("piped reply (exit %d) %q, want the reply as sent\n%s", code, out, errOut)
	}

	needTmux(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-render-%d", os.Getpid())}
	s.start(100, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "show me", "Enter")
	scr := s.waitFor("col │  n")
	if strings.Contains(scr, "```") || strings.Contains(scr, "**") || strings.Contains(scr, "|--") {
		t.Fatalf("raw Markdown on the terminal:\n%s", scr)
	}
	if !strings.Contains(scr, "Here is the fix:") || !strings.Contains(scr, "a   │ 10") {
		t.Fatalf("rendered reply:\n%s", scr)
	}
	colours := s.run("capture-pane", "-p", "-e", "-t", s.name)
	for _, l := range strings.Split(colours, "\n") {
		if strings.Contains(l, "Println") {
			if !strings.Contains(l, "\x1b[38;5;") {
				t.Fatalf("the code is not highlighted: %q", l)
			}
			return
		}
	}
	t.Fatalf("no code line on screen:\n%s", colours)
}

// TestColoursFollowNoColor: on a terminal the prompt and error lines are
// coloured; with NO_COLOR they are not.
func TestColoursFollowNoColor(t *testing.T) {
	needTmux(t)
	for _, noColor := range []bool{false, true} {
		s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-colour-%v-%d", noColor, os.Getpid())}
		var env []string
		if noColor {
			env = append(env, "NO_COLOR=1")
		}
		s.start(100, 30, env...)
		s.waitFor("offline>")
		s.run("send-keys", "-t", s.name, "/nope", "Enter")
		s.waitFor("error: unknown command /nope")
		screen := s.run("capture-pane", "-p", "-e", "-t", s.name)
		var promptLine, errorLine string
		for _, l := range strings.Split(screen, "\n") {
			switch {
			case strings.Contains(l, "offline>") && promptLine == "":
				promptLine = l
			case strings.Contains(l, "error: unknown command"):
				errorLine = l
			}
		}
		coloured := strings.Contains(promptLine, "\x1b[") && strings.Contains(errorLine, "\x1b[")
		if coloured == noColor {
			t.Errorf("NO_COLOR=%v: prompt %q, error %q", noColor, promptLine, errorLine)
		}
	}
}

// TestOneShotRendersOnATerminal: -p renders the reply on a terminal as the
// REPL does, plain with --raw, and byte for byte through a pipe.
func TestOneShotRendersOnATerminal(t *testing.T) {
	srv := markdownServer(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, code := runDir(t, t.TempDir(), env, "-p", "show me")
	if code != 0 || out != markdownReply+"\n" {
		t.Fatalf("piped reply (exit %d) %q, want the reply as sent\n%s", code, out, errOut)
	}

	needTmux(t)
	for _, raw := range []bool{false, true} {
		s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-oneshot-render-%v-%d", raw, os.Getpid()), args: []string{"-p", "show me"}}
		if raw {
			s.args = append(s.args, "--raw")
		}
		s.start(100, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
		if raw {
			scr := s.waitFor("| a | 10 |")
			if !strings.Contains(scr, "```go") || !strings.Contains(scr, "**the fix**") {
				t.Fatalf("--raw should print the Markdown as sent:\n%s", scr)
			}
			continue
		}
		scr := s.waitFor("col │  n")
		if strings.Contains(scr, "```") || strings.Contains(scr, "**") || !strings.Contains(scr, "a   │ 10") {
			t.Fatalf("-p on a terminal should render the reply:\n%s", scr)
		}
	}
}

// TestAResumedConversationIsRenderedOnATerminal: the replay of a loaded
// session shows its replies as a turn shows them, rendered, not as the
// raw Markdown stored.
func TestAResumedConversationIsRenderedOnATerminal(t *testing.T) {
	needTmux(t)
	srv := markdownServer(t)
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-replay-%d", os.Getpid()), args: []string{"--resume", "md"}}
	home := s.home() // removed once the REPL in tmux stops writing in it
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	if _, errOut, code := run(t, env, "show me\n/session save md\n"); code != 0 {
		t.Fatalf("save: exit %d\n%s", code, errOut)
	}
	s.start(100, 40, env...) // its CHATCLI_HOME, the later, wins
	scr := s.waitFor("col │  n", "m>")
	if strings.Contains(scr, "```") || strings.Contains(scr, "**") || strings.Contains(scr, "|--") {
		t.Fatalf("raw Markdown in the replay:\n%s", scr)
	}
	if !strings.Contains(scr, "> show me") || !strings.Contains(scr, "Here is the fix:") {
		t.Fatalf("replay:\n%s", scr)
	}
}
