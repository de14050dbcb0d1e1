package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/hub"
)

// TestChatsInAHubThreadSeeEachOthersTurns: two people join hub thread T;
// one's turn is shown in the other's chat as it ends; /session new rotates
// the thread (the other is told, and a later joiner sees no backlog of
// the conversation left behind); /hub leave stops the relay.
func TestChatsInAHubThreadSeeEachOthersTurns(t *testing.T) {
	f := newFixture(t)
	f.g.o.Hub = hub.NewRelay()
	defer f.g.Close()
	f.g.o.Allow["telegram"] = AllowList{"42", "43", "44"}
	chats := map[string]*recorder{"42": {}, "43": {}, "44": {}}
	send := func(user, text string) {
		m := Message{Principal: Principal{Channel: "telegram", User: user}, Chat: user, Text: text}
		if err := f.g.Handle(context.Background(), m, chats[user]); err != nil {
			t.Fatal(err)
		}
	}
	waitFor := func(user, sub string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			r := chats[user]
			r.mu.Lock()
			all := strings.Join(r.replies, "\n---\n")
			r.mu.Unlock()
			if strings.Contains(all, sub) {
				return
			}
		}
		t.Fatalf("chat %s never got %q: %q", user, sub, chats[user].replies)
	}
	send("42", "/hub join T")
	send("43", "/hub join T")
	waitFor("43", `Joined hub thread "T" (2 members`)
	send("42", "what is the plan")
	waitFor("43", "[hub T] telegram:42 asked: what is the plan\n[hub T] reply to telegram:42:\n"+reply(1, "what is the plan"))
	send("44", "/hub join T")
	waitFor("44", "1 recent turn)")
	waitFor("44", "[hub T] telegram:42 asked: what is the plan")
	send("42", "/session new")
	waitFor("43", "[hub T] telegram:42 started another conversation")
	send("44", "/hub leave")
	send("44", "/hub join T")
	waitFor("44", "0 recent turns)")
	send("43", "/hub leave")
	send("42", "after the leave")
	waitFor("44", "after the leave")
	for _, r := range chats["43"].replies {
		if strings.Contains(r, "after the leave") {
			t.Fatalf("chat 43 got a turn after /hub leave: %q", r)
		}
	}
}
