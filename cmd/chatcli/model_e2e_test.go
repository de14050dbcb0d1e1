package main

import (
	"strings"
	"testing"
)

// TestModelAndSwitchChangeTheNextTurnOnly: /model and /switch change the
// provider or model for the next turn; the history stays one conversation
// and /clear starts a new one.
func TestModelAndSwitchChangeTheNextTurnOnly(t *testing.T) {
	srv, seen := markerServer(t, "never")
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	script := "first\n/model\n/switch offline\nsecond\n/switch openai --model other\nthird\n/model\n/switch nope\n/clear\n/session status\n"
	out, errOut, _ := run(t, env, script)
	for _, want := range []string{
		"ok: first\n",
		"Provider openai, model m.",
		"Now using provider offline, model offline",
		"[offline] reply #2 to: second",
		"Now using provider openai, model other",
		"ok: third\n",
		"Provider openai, model other.",
		"Started a new conversation.",
		"No session bound (0 messages",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, `provider not supported: "nope"`) {
		t.Errorf("/switch nope:\n%s", errOut)
	}
	reqs := seen()
	if len(reqs) != 2 || len(reqs[1]) != 3 { // third's request holds first, second and third
		t.Fatalf("requests %q", reqs)
	}
}

// TestSessionShowInTheREPL: /session show prints this conversation, or a
// stored session by name; a missing one is exit 3.
func TestSessionShowInTheREPL(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	out, _, code := run(t, env, "hello\n/session show\n/session save s1\nmore\n/session show s1\n")
	if code != 0 || !strings.Contains(out, "This conversation · 2 messages · not bound to a session\n\n#1 user\nhello\n") ||
		!strings.Contains(out, "Session s1 · 4 messages") || !strings.Contains(out, "#3 user\nmore\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if _, errOut, code := run(t, env, "/session show nope\n"); code != exitNotFound || !strings.Contains(errOut, "nope") {
		t.Fatalf("a missing session: exit %d %s", code, errOut)
	}
}
