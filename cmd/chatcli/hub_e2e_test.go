package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
	"github.com/chatcli/chatcli/internal/hub"
)

// lockedBuffer is a bytes.Buffer a process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// waitText polls text for sub for up to 20 seconds.
func waitText(text func() string, sub string) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(text(), sub) {
			return true
		}
	}
	return false
}

// TestHubRelaysBetweenTheREPLAndTelegram: a REPL started with CHATCLI_HUB=T
// and a Telegram chat that sent /hub join T see each other's turns live
// (the REPL while it waits for input); /session new in the REPL rotates
// the thread, and the chat is told.
func TestHubRelaysBetweenTheREPLAndTelegram(t *testing.T) {
	home := t.TempDir()
	tg := telegramtest.New(telegramToken)
	defer tg.Close()
	env := []string{"CHATCLI_HOME=" + home}
	gw := startGateway(t, append(env, "CHATCLI_TELEGRAM_BOT_TOKEN="+telegramToken, "CHATCLI_TELEGRAM_ALLOWED_USERS=42", "CHATCLI_TELEGRAM_API_URL="+tg.URL))
	if !waitText(func() string {
		if _, err := os.Stat(hub.SocketPath(home)); err != nil {
			return ""
		}
		return "up"
	}, "up") {
		t.Fatalf("the gateway serves no hub\n%s", gw.stderr.String())
	}

	repl := exec.Command(binary)
	repl.Env = surfaceEnv(t, append(env, "CHATCLI_HUB=T"))
	var out, errOut lockedBuffer
	repl.Stdout, repl.Stderr = &out, &errOut
	stdin, err := repl.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := repl.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { repl.Process.Kill(); repl.Wait() })
	io.WriteString(stdin, "/hub\n")
	if !waitText(out.String, `In hub thread "T"`) {
		t.Fatalf("the REPL did not join T\n%s\n%s", out.String(), errOut.String())
	}

	sent := 0
	chat := func(text, want string) {
		t.Helper()
		tg.Push(42, 4242, text)
		sent++
		if !tg.WaitSent(sent, 20*time.Second) || !strings.Contains(tg.Sent()[sent-1].Text, want) {
			t.Fatalf("answer to %q: %+v, want %q\n%s", text, tg.Sent(), want, gw.stderr.String())
		}
	}
	chat("/hub join T", `Joined hub thread "T" (2 members`)
	chat("hello from telegram", "[offline] reply #1 to: hello from telegram")
	if !waitText(errOut.String, "[hub T] telegram:42 asked: hello from telegram\n[hub T] reply to telegram:42:\n[offline] reply #1 to: hello from telegram") {
		t.Fatalf("the REPL, waiting for input, was not shown the chat's turn:\n%s", errOut.String())
	}

	io.WriteString(stdin, "hello from the terminal\n")
	sent++
	if !tg.WaitSent(sent, 20*time.Second) || !strings.Contains(tg.Sent()[sent-1].Text, "terminal ") ||
		!strings.Contains(tg.Sent()[sent-1].Text, "asked: hello from the terminal") {
		t.Fatalf("the chat was not shown the REPL's turn: %+v\n%s", tg.Sent(), errOut.String())
	}
	io.WriteString(stdin, "/session new\n")
	sent++
	if !tg.WaitSent(sent, 20*time.Second) || !strings.Contains(tg.Sent()[sent-1].Text, "started another conversation") {
		t.Fatalf("the chat was not told of the rotation: %+v", tg.Sent())
	}
	stdin.Close()
	if err := repl.Wait(); err != nil {
		t.Fatalf("REPL: %v\n%s", err, errOut.String())
	}
	gw.stop(t)
	for _, s := range tg.Sent() {
		if s.ChatID != 4242 {
			t.Fatalf("sent to chat %d: %q", s.ChatID, s.Text)
		}
	}
}
