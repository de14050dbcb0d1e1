package whatsapp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
	"github.com/chatcli/chatcli/internal/gateway/whatsapp/whatsapptest"
)

const (
	accessToken = "EAAG-TEST-SECRET"
	appSecret   = "app-SECRET"
	phoneID     = "106540352242922"
)

type webhook struct {
	ep    *Endpoint
	http  *httptest.Server
	graph *whatsapptest.Server
	log   *gatewaytest.Log
}

func newWebhook(t *testing.T) *webhook {
	graph := whatsapptest.New(accessToken, phoneID)
	t.Cleanup(graph.Close)
	g, st, log := gatewaytest.New(t, t.TempDir(), map[string]gateway.AllowList{Channel: {"5511999990000"}}, nil)
	ep := NewEndpoint(context.Background(), Options{Client: Client{GraphURL: graph.GraphURL(), PhoneID: phoneID, Token: accessToken},
		VerifyToken: "verify-me", AppSecret: appSecret, Handler: g, State: st, Log: log.Add})
	srv := httptest.NewServer(ep)
	t.Cleanup(func() { srv.Close(); ep.Wait(); g.Close() })
	return &webhook{ep: ep, http: srv, graph: graph, log: log}
}

func (w *webhook) post(t *testing.T, body []byte, secret string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.http.URL, bytes.NewReader(body))
	whatsapptest.Sign(req.Header, secret, body)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestSubscriptionCheck(t *testing.T) {
	w := newWebhook(t)
	get := func(query string) (int, string) {
		resp, err := http.Get(w.http.URL + "?" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444"); code != 200 || body != "1158201444" {
		t.Fatalf("%d %q", code, body)
	}
	if code, _ := get("hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1"); code != http.StatusForbidden {
		t.Fatalf("a wrong verify token got %d", code)
	}
}

func TestMessagesSignaturesAndRedeliveries(t *testing.T) {
	w := newWebhook(t)
	hello := whatsapptest.Notification(phoneID, "5511999990000", "wamid.1", "hello **you**")
	if code := w.post(t, hello, "forged"); code != http.StatusUnauthorized {
		t.Fatalf("a forged signature got %d", code)
	}
	w.post(t, whatsapptest.Notification(phoneID, "4477000000", "wamid.2", "let me in"), appSecret)
	for range 2 { // Meta's redelivery
		if code := w.post(t, hello, appSecret); code != 200 {
			t.Fatalf("status %d", code)
		}
	}
	if !w.graph.WaitSent(1, 10*time.Second) {
		t.Fatalf("no reply; log:\n%s", w.log)
	}
	time.Sleep(200 * time.Millisecond)
	w.ep.Wait()
	sent := w.graph.Sent()
	if len(sent) != 1 || sent[0].To != "5511999990000" || sent[0].Body != "[offline] reply #1 to: hello *you*" {
		t.Fatalf("sent %+v", sent)
	}
	if typing := w.graph.Typing(); len(typing) != 1 || typing[0] != "wamid.1" {
		t.Fatalf("typing indicators %q", typing)
	}
	if strings.Contains(w.log.String(), "SECRET") {
		t.Fatalf("a secret was logged:\n%s", w.log)
	}
}

func TestGraphErrorsNameTheStatusNotTheToken(t *testing.T) {
	graph := whatsapptest.New("another", phoneID)
	defer graph.Close()
	c := Client{GraphURL: graph.GraphURL(), PhoneID: phoneID, Token: accessToken}
	err := c.SendText(context.Background(), "1", "hi")
	var ge *GraphError
	if !errors.As(err, &ge) || ge.Status != 401 || ge.Code != 190 || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("%v", err)
	}
}

func TestLongRepliesAreSplit(t *testing.T) {
	w := newWebhook(t)
	r := &replier{ep: w.ep, to: "5511999990000"}
	if err := r.Reply(context.Background(), strings.Repeat("palavra ", 1200)); err != nil { // 9,600 characters
		t.Fatal(err)
	}
	if sent := w.graph.Sent(); len(sent) != 3 {
		t.Fatalf("%d messages, want 3", len(sent))
	}
}
