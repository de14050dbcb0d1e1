package slack

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
	"github.com/chatcli/chatcli/internal/gateway/slack/slacktest"
)

const (
	botToken = "xoxb-TEST-SECRET"
	secret   = "signing-SECRET"
)

// endpoint is the Events API endpoint over a fresh gateway allowing U1,
// served by an httptest server; api is the fake Web API it posts to.
type endpoint struct {
	ep   *Endpoint
	http *httptest.Server
	api  *slacktest.Server
	log  *gatewaytest.Log
}

func newEndpoint(t *testing.T) *endpoint {
	api := slacktest.New(botToken)
	t.Cleanup(api.Close)
	g, st, log := gatewaytest.New(t, t.TempDir(), map[string]gateway.AllowList{Channel: {"U1"}}, nil)
	ep := NewEndpoint(context.Background(), Options{Token: botToken, SigningSecret: secret, APIURL: api.APIURL(), Handler: g, State: st, Log: log.Add})
	srv := httptest.NewServer(ep)
	t.Cleanup(func() { srv.Close(); ep.Wait(); g.Close() })
	return &endpoint{ep: ep, http: srv, api: api, log: log}
}

// post sends body signed with key at time at and returns the status and
// the answer's body.
func (e *endpoint) post(t *testing.T, body []byte, key string, at time.Time) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.http.URL, bytes.NewReader(body))
	slacktest.Sign(req.Header, key, body, at)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestURLVerificationAndSignatures(t *testing.T) {
	e := newEndpoint(t)
	challenge := []byte(`{"token":"legacy","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`)
	if code, body := e.post(t, challenge, secret, time.Now()); code != 200 || body != "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" {
		t.Fatalf("url_verification: %d %q", code, body)
	}
	dm := slacktest.DirectMessage("Ev1", "U1", "D1", "hello")
	for name, send := range map[string]func() (int, string){
		"wrong secret": func() (int, string) { return e.post(t, dm, "another", time.Now()) },
		"stale":        func() (int, string) { return e.post(t, dm, secret, time.Now().Add(-10*time.Minute)) },
	} {
		if code, _ := send(); code != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401", name, code)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if posts := e.api.Posts(); len(posts) != 0 {
		t.Fatalf("an unsigned request was served: %+v", posts)
	}
	if strings.Contains(e.log.String(), "SECRET") {
		t.Fatalf("a secret was logged:\n%s", e.log)
	}
}

func TestDirectMessagesMentionsAndRedeliveries(t *testing.T) {
	e := newEndpoint(t)
	e.post(t, slacktest.DirectMessage("Ev0", "U9", "D9", "let me in"), secret, time.Now())
	dm := slacktest.DirectMessage("Ev1", "U1", "D1", "hello *there*")
	for range 2 { // Slack's retry of the same event
		if code, _ := e.post(t, dm, secret, time.Now()); code != 200 {
			t.Fatalf("status %d", code)
		}
	}
	e.post(t, slacktest.Mention("Ev2", "B1", "U1", "C1", "and you?"), secret, time.Now())
	if !e.api.WaitPosts(2, 10*time.Second) {
		t.Fatalf("posts %+v; log:\n%s", e.api.Posts(), e.log)
	}
	time.Sleep(200 * time.Millisecond)
	e.ep.Wait()
	posts := e.api.Posts()
	if len(posts) != 2 {
		t.Fatalf("%d posts, want 2 (a redelivered event was served twice, or the unknown sender answered): %+v", len(posts), posts)
	}
	byChannel := map[string]slacktest.Post{}
	for _, p := range posts {
		byChannel[p.Channel] = p
	}
	if p := byChannel["D1"]; p.Text != "[offline] reply #1 to: hello _there_" || !strings.Contains(p.Blocks, `"mrkdwn"`) {
		t.Fatalf("reply to the direct message: %+v", p)
	}
	if p := byChannel["C1"]; p.Text != "[offline] reply #2 to: and you?" {
		t.Fatalf("reply to the mention: %+v", p)
	}
	if n := strings.Count(e.log.String(), "user U9"); n != 1 {
		t.Fatalf("the unknown sender was logged %d times", n)
	}
}

func TestLongRepliesAreSplitAndRateLimitsWaited(t *testing.T) {
	e := newEndpoint(t)
	e.api.RateLimit = 1
	r := &replier{ep: e.ep, channel: "D1"}
	if err := r.Reply(context.Background(), strings.Repeat("long words here ", 500)); err != nil { // 8,000 characters
		t.Fatal(err)
	}
	posts := e.api.Posts()
	if len(posts) != 3 {
		t.Fatalf("%d posts, want 3", len(posts))
	}
	for _, p := range posts {
		if n := utf8.RuneCountInString(p.Text); n > MessageLimit {
			t.Fatalf("a part of %d characters", n)
		}
	}
}
