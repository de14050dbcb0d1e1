package telegram

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
)

// TestASlowChatHoldsUpNoOtherChat: while one chat's turn waits on the
// model, another chat is answered; the slow chat's next message waits for
// its first (one chat, one order); the saved offset never passes the
// message in flight, so a daemon killed then would be given it again; and
// each message reaches the model once.
func TestASlowChatHoldsUpNoOtherChat(t *testing.T) {
	srv := telegramtest.New(token)
	defer srv.Close()
	model := gatewaytest.NewModel(t, "slow question")
	home := t.TempDir()
	g, st, log := gatewaytest.New(t, home, map[string]gateway.AllowList{Channel: {"42", "43"}}, model.Provider(t))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Token: token, APIURL: srv.URL, Handler: g, State: st, Log: log.Add, PollTimeout: time.Second,
			Recheck: 50 * time.Millisecond})
	}()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := errors.Join(<-done, g.Close()); err != nil {
				t.Error(err)
			}
		}
	}
	defer stop()

	slow := srv.Push(42, 42, "a slow question")
	srv.Push(42, 42, "and a second one")
	if !model.WaitHeld(1, 10*time.Second) {
		t.Fatalf("the slow turn never reached the model; log:\n%s", log.String())
	}
	srv.Push(43, 43, "a quick one")
	if !srv.WaitSent(1, 10*time.Second) {
		t.Fatalf("chat 43 was not answered while chat 42 waited; log:\n%s", log.String())
	}
	if sent := srv.Sent(); sent[0].ChatID != 43 {
		t.Fatalf("first reply %+v, want chat 43's", sent[0])
	}
	if off := st.Offset(Channel); off > slow {
		t.Fatalf("offset %d saved while update %d is in flight: a kill now would lose it", off, slow)
	}
	if n := len(model.Bodies()); n != 2 {
		t.Fatalf("%d requests while chat 42's first turn runs, want 2: its second message did not wait", n)
	}
	model.Release()
	if !srv.WaitSent(3, 10*time.Second) {
		t.Fatalf("chat 42 not answered after the model answered; log:\n%s", log.String())
	}
	sent := srv.Sent()
	if sent[1].ChatID != 42 || sent[2].ChatID != 42 {
		t.Fatalf("sent %+v", sent)
	}
	stop()
	if off := st.Offset(Channel); off != slow+3 {
		t.Fatalf("offset %d after every message was served, want %d", off, slow+3)
	}
	bodies := model.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("the model was asked %d times for 3 messages", len(bodies))
	}
	store, _ := gatewaytest.Store(home)
	s, err := store.Load("gw-telegram-42")
	if err != nil || len(s.History) != 4 || s.History[0].Content != "a slow question" || s.History[2].Content != "and a second one" {
		t.Fatalf("chat 42's conversation out of order: %v %+v", err, s)
	}
	for id := slow; id < slow+3; id++ {
		if n := srv.Delivered(id); n < 1 {
			t.Fatalf("update %d delivered %d times", id, n)
		}
	}
}
