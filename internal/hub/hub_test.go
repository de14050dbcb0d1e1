package hub

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// events collects what one member is told.
type events struct {
	mu  sync.Mutex
	got []Event
}

func (e *events) add(ev Event) { e.mu.Lock(); e.got = append(e.got, ev); e.mu.Unlock() }

func (e *events) wait(t *testing.T, n int) []Event {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		e.mu.Lock()
		got := append([]Event(nil), e.got...)
		e.mu.Unlock()
		if len(got) >= n {
			return got
		}
	}
	t.Fatalf("fewer than %d events: %+v", n, e.got)
	return nil
}

// TestRelayAcrossTheSocket: a client's turn reaches the in-process member
// and back; a member joining later is shown the backlog; a rotation drops
// it, and a turn that started before the rotation is not relayed.
func TestRelayAcrossTheSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gateway", "hub.sock")
	r := NewRelay()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- r.Serve(ctx, path) }()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			break
		}
	}
	var local, remote, late events
	m := r.Join("T", "telegram:42", local.add)
	cl, err := Dial(path, "T", "terminal", remote.add)
	if err != nil {
		t.Fatal(err)
	}
	remote.wait(t, 1) // joined
	if err := cl.Publish(cl.Epoch(), "hello from the terminal", "hi"); err != nil {
		t.Fatal(err)
	}
	if got := local.wait(t, 2)[1]; got.Kind != KindTurn || got.Turn.From != "terminal" || got.Turn.Prompt != "hello from the terminal" {
		t.Fatalf("local member got %+v", got)
	}
	m.Publish(m.Epoch(), "hello from telegram", "hey")
	if got := remote.wait(t, 2)[1]; got.Kind != KindTurn || got.Turn.From != "telegram:42" || got.Turn.Reply != "hey" {
		t.Fatalf("client got %+v", got)
	}
	if j := r.Join("T", "slack:U1", late.add); late.wait(t, 1)[0].Kind != KindJoined || len(late.got[0].Backlog) != 2 {
		t.Fatalf("late joiner got %+v", late.got)
	} else {
		j.Leave()
	}
	old := m.Epoch()
	if err := cl.Rotate(); err != nil {
		t.Fatal(err)
	}
	if got := local.wait(t, 3)[2]; got.Kind != KindRotated || got.Epoch != old+1 || got.From != "terminal" {
		t.Fatalf("local member got %+v after the rotation", got)
	}
	m.Publish(old, "a turn of the old conversation", "…")
	m.Publish(m.Epoch(), "a turn after it", "ok")
	got := remote.wait(t, 4)
	if got[2].Kind != KindRotated || got[3].Turn == nil || got[3].Turn.Prompt != "a turn after it" {
		t.Fatalf("client got %+v", got)
	}
	var again events
	r.Join("T", "whatsapp:55", again.add)
	if b := again.wait(t, 1)[0].Backlog; len(b) != 1 || b[0].Prompt != "a turn after it" {
		t.Fatalf("backlog after the rotation: %+v", b)
	}
	cl.Close()
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
