package telegram

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
	"github.com/chatcli/chatcli/internal/provider/openai"
)

// TestStopMidTurnKeepsThePromptAndNeverServesItAgain stops the daemon
// while the model is still answering (an OpenAI-compatible server on
// 127.0.0.1 that never finishes): nothing is sent, the prompt is in the
// mirror, and a restarted daemon does not serve the message again.
func TestStopMidTurnKeepsThePromptAndNeverServesItAgain(t *testing.T) {
	var requests atomic.Int32
	var aborted atomic.Bool
	started := make(chan struct{}, 4)
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		io.Copy(io.Discard, r.Body) // so that a closed connection is noticed
		started <- struct{}{}
		select {
		case <-r.Context().Done():
			aborted.Store(true)
		case <-time.After(10 * time.Second): // never hold the test up
		}
	}))
	defer model.Close()
	prov, err := openai.New(openai.Config{BaseURL: model.URL + "/v1", Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := telegramtest.New(token)
	defer srv.Close()
	home := t.TempDir()
	d := start(t, srv, home, prov)
	id := srv.Push(42, 42, "a slow question")
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatalf("the model was never asked; log:\n%s", d.text())
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(aborted.Load) {
		t.Fatal("the request to the model was not cancelled")
	}
	if sent := srv.Sent(); len(sent) != 0 {
		t.Fatalf("sent %+v after a stop mid-turn", sent)
	}
	st, err := gateway.OpenState(home)
	if err != nil || st.Offset(Channel) != id+1 {
		t.Fatalf("offset %d (%v), want %d", st.Offset(Channel), err, id+1)
	}
	store, _ := gatewaytest.Store(home)
	s, err := store.Load("gw-telegram-42")
	if err != nil || len(s.History) == 0 || !strings.Contains(s.History[0].Content, "a slow question") {
		t.Fatalf("the prompt was not kept: %v %+v", err, s)
	}
	d = start(t, srv, home, prov)
	if !srv.WaitPolls(3, 10*time.Second) { // the first daemon's poll, and two of the second's
		t.Fatal("the restarted daemon does not poll")
	}
	d.stop()
	if n := requests.Load(); n != 1 {
		t.Fatalf("the model was asked %d times: the message was served again", n)
	}
}

// waitFor polls cond for up to 5 seconds.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}
