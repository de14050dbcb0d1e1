package mcpserver

import (
	"regexp"
	"testing"

	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// TestARetryIsAChatNotice: a provider's 500, retried by its SDK, is among
// the notices of the chat result that carries the reply.
func TestARetryIsAChatNotice(t *testing.T) {
	s := providertest.NewOpenAI(t, providertest.Reply{Status: 500, ErrType: "server_error", ErrMessage: "boom"},
		providertest.Reply{Text: "fine after all"})
	p, err := openai.New(openai.Config{Model: "m", BaseURL: s.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, setup{provider: p})
	out := f.chat(map[string]any{"prompt": "ping"})
	want := regexp.MustCompile(`^HTTP 500 from openai; retrying in 0\.[45] s \(attempt 2 of 3\)…$`)
	if out.Reply != "fine after all" || len(out.Notices) != 1 || !want.MatchString(out.Notices[0]) {
		t.Fatalf("reply %q, notices %q", out.Reply, out.Notices)
	}
}
