package telegram

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
)

const token = "123456:TEST-SECRET-token"

// daemon is Run over a fresh gateway on home, stopped by stop.
type daemon struct {
	g    *gateway.Gateway
	log  *gatewaytest.Log
	stop func() error
}

func (d *daemon) text() string { return d.log.String() }

func start(t *testing.T, srv *telegramtest.Server, home string, prov provider.Provider) *daemon {
	t.Helper()
	g, st, log := gatewaytest.New(t, home, map[string]gateway.AllowList{Channel: {"42"}}, prov)
	d := &daemon{g: g, log: log}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Token: token, APIURL: srv.URL, Handler: d.g, State: st, Log: log.Add, PollTimeout: time.Second,
			Backoff: gateway.Backoff{Min: 10 * time.Millisecond, Max: 50 * time.Millisecond}})
	}()
	var once sync.Once
	var runErr error
	d.stop = func() error {
		once.Do(func() { cancel(); runErr = errors.Join(<-done, d.g.Close()) })
		return runErr
	}
	t.Cleanup(func() { d.stop() })
	return d
}

func TestConversationOverTheBotAPI(t *testing.T) {
	srv := telegramtest.New(token)
	defer srv.Close()
	home := t.TempDir()
	d := start(t, srv, home, offline.New(""))
	srv.Push(666, 666, "let me in")
	first := srv.Push(42, 4200, "hello **there**")
	if !srv.WaitSent(1, 10*time.Second) {
		t.Fatalf("no reply; log:\n%s", d.text())
	}
	sent := srv.Sent()
	if sent[0].ChatID != 4200 || sent[0].ParseMode != "HTML" || sent[0].Text != "[offline] reply #1 to: hello <b>there</b>" {
		t.Fatalf("sent %+v", sent[0])
	}
	if srv.Actions() == 0 {
		t.Fatal("no typing indicator")
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(d.text(), "user 666"); n != 1 {
		t.Fatalf("the unknown sender logged %d times, want once:\n%s", n, d.text())
	}
	// Telegram forgets an update only when a later getUpdates confirms it:
	// the first update is still pending there, and a new daemon must not
	// serve it again.
	d = start(t, srv, home, offline.New(""))
	before := len(srv.Sent())
	srv.Push(42, 4200, "again")
	if !srv.WaitSent(2, 10*time.Second) {
		t.Fatalf("no second reply; log:\n%s", d.text())
	}
	d.stop()
	sent = srv.Sent()
	if len(sent) != 2 || sent[1].Text != "[offline] reply #2 to: again" || before != 1 {
		t.Fatalf("sent %+v: a message was served twice or lost (first update delivered %d times)", sent, srv.Delivered(first))
	}
	for _, m := range sent {
		if m.ChatID == 666 {
			t.Fatal("the unknown sender got a reply")
		}
	}
}

func TestLongRepliesAreSplitAndRefusedMarkupIsSentPlain(t *testing.T) {
	srv := telegramtest.New(token)
	defer srv.Close()
	srv.RejectHTML = true
	o := &Options{Token: token, APIURL: srv.URL, PollTimeout: time.Second, Backoff: gateway.DefaultBackoff(), Log: func(string) {}}
	bot, err := connect(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	r := &replier{bot: bot, chat: 7, o: o}
	long := strings.Repeat("a <b> & c ", 1000) // 10,000 characters
	if err := r.Reply(context.Background(), long); err != nil {
		t.Fatal(err)
	}
	sent := srv.Sent()
	if len(sent) != 3 {
		t.Fatalf("%d messages, want 3", len(sent))
	}
	var total int
	for _, m := range sent {
		n := utf8.RuneCountInString(m.Text)
		if n > MessageLimit || m.ParseMode != "" {
			t.Fatalf("a part of %d characters, parse mode %q", n, m.ParseMode)
		}
		total += n
	}
	if total < 9990 {
		t.Fatalf("%d characters sent of 10000", total)
	}
}

func TestReconnectsWithBackoffAndNeverLogsTheToken(t *testing.T) {
	srv := telegramtest.New(token)
	defer srv.Close()
	srv.FailPolls = 3
	d := start(t, srv, t.TempDir(), offline.New(""))
	srv.Push(42, 42, "hi")
	if !srv.WaitSent(1, 10*time.Second) {
		t.Fatalf("no reply after the failures; log:\n%s", d.text())
	}
	d.stop()
	if n := strings.Count(d.text(), "getUpdates"); n != 3 {
		t.Fatalf("%d failures logged, want 3:\n%s", n, d.text())
	}
	if strings.Contains(d.text(), "SECRET") {
		t.Fatalf("the token was logged:\n%s", d.text())
	}
}

func TestRefusedTokenEndsRun(t *testing.T) {
	srv := telegramtest.New("another:token")
	defer srv.Close()
	st, _ := gateway.OpenState(t.TempDir())
	err := Run(context.Background(), Options{Token: token, APIURL: srv.URL, State: st})
	if !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("Run: %v", err)
	}
}
