package gateway_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
)

// recorder is a Replier keeping nothing.
type recorder struct{}

func (recorder) Reply(context.Context, string) error { return nil }
func (recorder) Typing(context.Context) error        { return nil }

// TestPrincipalsOfOneSessionTakeTurns: two people bound to one session
// send at the same time; the second turn waits for the first and its
// request holds the first turn (adopted), so neither is answered blind.
func TestPrincipalsOfOneSessionTakeTurns(t *testing.T) {
	model := gatewaytest.NewModel(t, "slow question")
	home := t.TempDir()
	g, _, _ := gatewaytest.New(t, home, map[string]gateway.AllowList{"telegram": {"42", "43"}}, model.Provider(t))
	defer g.Close()
	defer model.Release() // before Close, which waits for the turn held
	send := func(user, text string) {
		m := gateway.Message{Principal: gateway.Principal{Channel: "telegram", User: user}, Chat: user, Text: text}
		if err := g.Handle(context.Background(), m, recorder{}); err != nil {
			t.Error(err)
		}
	}
	send("42", "/session attach S")
	send("43", "/session attach S")
	first := make(chan struct{})
	go func() { defer close(first); send("42", "a slow question") }()
	if !model.WaitHeld(1, 10*time.Second) {
		t.Fatal("the first turn never reached the model")
	}
	second := make(chan struct{})
	go func() { defer close(second); send("43", "a quick one") }()
	time.Sleep(300 * time.Millisecond)
	if n := len(model.Bodies()); n != 1 {
		t.Fatalf("%d requests while the first turn of session S runs, want 1", n)
	}
	model.Release()
	<-first
	<-second
	bodies := model.Bodies()
	if len(bodies) != 2 || !bytes.Contains(bodies[1], []byte("a slow question")) {
		t.Fatalf("the second turn's request does not hold the first turn:\n%s", bodies[len(bodies)-1])
	}
	store, _ := gatewaytest.Store(home)
	s, err := store.Load("S")
	if err != nil || len(s.History) != 4 || s.History[0].Content != "a slow question" || s.History[2].Content != "a quick one" {
		t.Fatalf("session S: %v %+v", err, s)
	}
}
