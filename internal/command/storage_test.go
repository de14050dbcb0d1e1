package command

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

func TestStorageCommand(t *testing.T) {
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	for name, age := range map[string]time.Duration{"autosave-old": 100 * 24 * time.Hour, "notes": 1000 * 24 * time.Hour} {
		updated := time.Now().Add(-age)
		st.SetClock(func() time.Time { return updated })
		st.Save(name, &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "hi"}}})
	}
	var out bytes.Buffer
	env := &Env{Engine: conversation.New(conversation.Options{Store: st, Provider: offline.New("")}), Out: &out, Err: &out}
	run := func(line string) string {
		t.Helper()
		out.Reset()
		if err := Dispatch(context.Background(), env, line); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return out.String()
	}
	if got := run("/storage"); !strings.Contains(got, "sessions autosave-  1") || !strings.Contains(got, "sessions you named  1") {
		t.Fatalf("report:\n%s", got)
	}
	if got := run("/storage prune"); !strings.Contains(got, "TTL: 1") || !strings.Contains(got, "autosave-old") ||
		strings.Contains(got, "notes") || !strings.Contains(got, "/storage prune --apply carries this out") {
		t.Fatalf("plan:\n%s", got)
	}
	if got := run("/storage prune --apply"); !strings.Contains(got, "moved 1 machine-made session to the trash") {
		t.Fatalf("apply:\n%s", got)
	}
	if st.Exists("autosave-old") || !st.Exists("notes") {
		t.Fatal("wrong session removed")
	}
	if got := run("/storage prune"); !strings.Contains(got, "Nothing to remove.") {
		t.Fatalf("after apply:\n%s", got)
	}
	if err := Dispatch(context.Background(), env, "/storage prune --force"); err == nil {
		t.Fatal("unknown flag accepted")
	}
}
