package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// failingOnce is a strict fake of the chat-completions API (SSE streaming)
// that answers its first request with an HTTP 500 and then streams
// "hello after the retry".
func failingOnce(t *testing.T) *providertest.Server {
	return providertest.NewOpenAI(t, providertest.Reply{Status: 500, ErrType: "server_error", ErrMessage: "The server had an error"},
		providertest.Reply{Text: "hello after the retry"})
}

// retryNote is the retry's line on standard error, in English and in
// Portuguese.
var retryNote = map[string]*regexp.Regexp{
	"en":    regexp.MustCompile(`(?m)^note: HTTP 500 from openai; retrying in 0\.[45] s \(attempt 2 of 3\)…$`),
	"pt-BR": regexp.MustCompile(`(?m)^nota: HTTP 500 de openai; nova tentativa em 0,[45] s \(tentativa 2 de 3\)…$`),
}

// TestARetryIsSaidInAPipedOneShot: -p through a pipe prints the reply on
// standard output and the retry, once, on standard error, in the
// language of the environment.
func TestARetryIsSaidInAPipedOneShot(t *testing.T) {
	for lang, want := range retryNote {
		s := failingOnce(t)
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + s.URL + "/v1", "OPENAI_MODEL=m", "CHATCLI_LANG=" + lang}
		out, errOut, code := run(t, env, "", "-p", "hi")
		if code != 0 || out != "hello after the retry\n" || s.Requests() != 2 {
			t.Fatalf("%s: exit %d, %d requests, out %q, stderr %q", lang, code, s.Requests(), out, errOut)
		}
		if n := len(want.FindAllString(errOut, -1)); n != 1 || strings.Count(errOut, "\n") != 1 {
			t.Fatalf("%s: want the retry said once and nothing else, stderr:\n%s", lang, errOut)
		}
	}
}

// TestARetryIsSaidInTheREPL: through a pipe the REPL says the retry on
// standard error and the reply follows.
func TestARetryIsSaidInTheREPL(t *testing.T) {
	s := failingOnce(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + s.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, code := run(t, env, "hi\n")
	if code != 0 || !strings.Contains(out, "hello after the retry") || len(retryNote["en"].FindAllString(errOut, -1)) != 1 {
		t.Fatalf("exit %d, out %q, stderr:\n%s", code, out, errOut)
	}
}

// TestARetryIsANoticeEventInStreamJSON: --stream-json reports the retry
// as a notice event before the reply's deltas; --json lists it among the
// notices.
func TestARetryIsANoticeEventInStreamJSON(t *testing.T) {
	s := failingOnce(t)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + s.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, code := run(t, env, "", "-p", "hi", "--stream-json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct{ Type, Text string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		types = append(types, ev.Type)
		if ev.Type == "notice" && !regexp.MustCompile(`^HTTP 500 from openai; retrying in 0\.[45] s \(attempt 2 of 3\)…$`).MatchString(ev.Text) {
			t.Fatalf("notice %q", ev.Text)
		}
	}
	if len(types) < 3 || types[0] != "notice" || types[1] != "delta" || types[len(types)-1] != "done" || strings.Count(strings.Join(types, " "), "notice") != 1 {
		t.Fatalf("events %q:\n%s", types, out)
	}
	s = failingOnce(t)
	env[1] = "OPENAI_BASE_URL=" + s.URL + "/v1"
	out, _, code = run(t, env, "", "-p", "hi", "--json")
	var rep struct {
		Reply   string   `json:"reply"`
		Notices []string `json:"notices"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Reply != "hello after the retry" || len(rep.Notices) != 1 ||
		!strings.HasPrefix(rep.Notices[0], "HTTP 500 from openai; retrying in ") {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
}

// TestARetryOfAnthropicIsSaid: Anthropic's overloaded (529), retried by
// its SDK, is said as well.
func TestARetryOfAnthropicIsSaid(t *testing.T) {
	s := providertest.NewAnthropic(t, providertest.Reply{Status: 529, ErrType: "overloaded_error", ErrMessage: "Overloaded"},
		providertest.Reply{Text: "hi from claude"})
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "LLM_PROVIDER=CLAUDEAI", "CLAUDEAI_API_KEY=k", "ANTHROPIC_BASE_URL=" + s.URL}
	out, errOut, code := run(t, env, "", "-p", "hi")
	want := regexp.MustCompile(`(?m)^note: HTTP 529 from anthropic; retrying in 0\.[45] s \(attempt 2 of 3\)…$`)
	if code != 0 || out != "hi from claude\n" || len(want.FindAllString(errOut, -1)) != 1 {
		t.Fatalf("exit %d, out %q, stderr:\n%s", code, out, errOut)
	}
}

// TestARetryOnATerminalKeepsTheSpinner: on a terminal the retry's line
// comes above the spinner, which goes on through the server's wait
// (Retry-After: 2) until the reply arrives.
func TestARetryOnATerminalKeepsTheSpinner(t *testing.T) {
	needTmux(t)
	srv := providertest.NewOpenAI(t, providertest.Reply{Status: 429, ErrType: "rate_limit_exceeded", ErrMessage: "Rate limit reached", RetryAfter: "2"},
		providertest.Reply{Text: "the answer arrived"})
	s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-retry-%d", os.Getpid())}
	s.start(120, 40, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=m")
	s.waitFor("m>")
	s.run("send-keys", "-t", s.name, "a question", "Enter")
	s.waitFor("note: HTTP 429 from openai; retrying in 2.0 s (attempt 2 of 3)…", "waiting for the model… 1s")
	scr := s.waitFor("the answer arrived")
	if strings.Contains(scr, "waiting for the model") || strings.Count(scr, "retrying in") != 1 {
		t.Fatalf("after the reply:\n%s", scr)
	}
}
