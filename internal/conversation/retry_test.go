package conversation

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// TestARetriedRequestIsANotice: the provider's 500, retried by its SDK,
// is said once, in the engine's language, before the reply arrives, and
// OnRetried hears it after the notice.
func TestARetriedRequestIsANotice(t *testing.T) {
	for _, c := range []struct {
		lang *i18n.Printer
		want string
	}{
		{nil, `^HTTP 500 from openai; retrying in 0\.[45] s \(attempt 2 of 3\)…$`},
		{i18n.New(i18n.Portuguese), `^HTTP 500 de openai; nova tentativa em 0,[45] s \(tentativa 2 de 3\)…$`},
	} {
		s := providertest.NewOpenAI(t, providertest.Reply{Status: 500, ErrType: "server_error", ErrMessage: "boom"},
			providertest.Reply{Text: "fine"})
		p, err := openai.New(openai.Config{Model: "m", BaseURL: s.URL + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t)
		e := f.engine(p)
		e.lang = c.lang
		var order []string
		e.SetNotify(func(s string) { order = append(order, s) })
		e.SetOnRetried(func() { order = append(order, "retried") })
		reply, err := e.Turn(context.Background(), "hi", nil)
		if err != nil || reply.Content != "fine" {
			t.Fatalf("reply %q, err %v", reply.Content, err)
		}
		if len(order) != 2 || !regexp.MustCompile(c.want).MatchString(order[0]) || order[1] != "retried" {
			t.Fatalf("heard %q, want a notice matching %s then the retry", order, c.want)
		}
	}
}

// TestAServerThatCannotBeReachedIsSaidWithItsCause: each retry of a
// request that got no response names the cause, not the request's URL.
func TestAServerThatCannotBeReachedIsSaidWithItsCause(t *testing.T) {
	s := providertest.NewOpenAI(t)
	p, err := openai.New(openai.Config{Model: "m", BaseURL: s.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	e := f.engine(p)
	turn(t, e, "hi") // the fake is hit once
	s.Close()
	if _, err := e.Turn(context.Background(), "again", nil); err == nil {
		t.Fatal("a closed server answered")
	}
	want := regexp.MustCompile(`^openai could not be reached \([^)]+\); retrying in 0\.5 s \(attempt 2 of 3\)…$`)
	if len(f.notices) != 2 || !want.MatchString(f.notices[0]) || strings.Contains(f.notices[0], "http://") ||
		!strings.Contains(f.notices[1], "connection refused") {
		t.Fatalf("notices %q", f.notices)
	}
}
