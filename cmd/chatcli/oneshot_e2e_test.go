package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestOneShotTakesPipedInput: `echo data | chatcli -p "summarise"` sends
// the prompt and the input; `-p -` sends the input alone; an empty `-p -`
// is a usage error.
func TestOneShotTakesPipedInput(t *testing.T) {
	srv, seen := markerServer(t, "never")
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, code := run(t, env, "data\nmore data\n", "-p", "summarise")
	if code != 0 || out != "ok: summarise\n\ndata\nmore data\n\n" {
		t.Fatalf("exit %d, reply %q\n%s", code, out, errOut)
	}
	if out, _, code = run(t, env, "the whole prompt\n", "-p", "-"); code != 0 || out != "ok: the whole prompt\n\n" {
		t.Fatalf("-p -: exit %d, reply %q", code, out)
	}
	if _, errOut, code = run(t, env, "  \n", "-p", "-"); code != exitUsage || !strings.Contains(errOut, "standard input") {
		t.Fatalf("empty -p -: exit %d, %s", code, errOut)
	}
	if _, _, code = run(t, env, "", "-p", "alone"); code != 0 {
		t.Fatalf("-p with nothing piped: exit %d", code)
	}
	reqs := seen()
	if len(reqs) != 3 || reqs[0][0] != "summarise\n\ndata\nmore data\n" || reqs[1][0] != "the whole prompt\n" || reqs[2][0] != "alone" {
		t.Fatalf("requests %q", reqs)
	}
}

// TestTimeoutFlagLimitsTheRequest: --timeout cuts a request that takes too
// long (exit 5); a bad value is a usage error.
func TestTimeoutFlagLimitsTheRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so that a closed connection is noticed
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	start := time.Now()
	if _, errOut, code := run(t, env, "", "-p", "hi", "--timeout", "300ms"); code != exitProvider || time.Since(start) > 8*time.Second {
		t.Fatalf("exit %d after %v: %s", code, time.Since(start), errOut)
	}
	if _, errOut, code := run(t, env, "", "-p", "hi", "--timeout", "soon"); code != exitUsage || !strings.Contains(errOut, "--timeout") {
		t.Fatalf("a bad --timeout: exit %d %s", code, errOut)
	}
}
