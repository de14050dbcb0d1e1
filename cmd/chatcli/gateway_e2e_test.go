package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/gateway/slack/slacktest"
	"github.com/chatcli/chatcli/internal/gateway/telegram/telegramtest"
	"github.com/chatcli/chatcli/internal/gateway/whatsapp/whatsapptest"
)

const telegramToken = "123456:E2E-SECRET"

// gatewayProc is a `chatcli gateway` process.
type gatewayProc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
}

func startGateway(t *testing.T, env []string) *gatewayProc {
	t.Helper()
	p := &gatewayProc{cmd: exec.Command(binary, "gateway")}
	p.cmd.Env = surfaceEnv(t, env)
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *gatewayProc) stop(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("gateway after SIGTERM: %v\n%s", err, p.stderr.String())
		}
	case <-time.After(exitWait):
		t.Fatalf("gateway did not stop on SIGTERM\n%s", p.stderr.String())
	}
}

// TestGatewayTelegramEndToEnd is one session S across three surfaces: the
// REPL starts it, a chat on a fake Telegram (the Bot API on 127.0.0.1,
// driven by the real daemon) attaches to it and continues, MCP adds a
// turn, the chat adopts it, and after a SIGTERM and a restart the chat
// finishes it. Every turn is in S, in order; an unknown sender gets
// nothing; no message is served twice.
func TestGatewayTelegramEndToEnd(t *testing.T) {
	home := t.TempDir()
	tg := telegramtest.New(telegramToken)
	defer tg.Close()
	env := []string{"CHATCLI_HOME=" + home}
	gwEnv := append(env, "CHATCLI_TELEGRAM_BOT_TOKEN="+telegramToken, "CHATCLI_TELEGRAM_ALLOWED_USERS=42", "CHATCLI_TELEGRAM_API_URL="+tg.URL)
	reply := func(n int, prompt string) string { return fmt.Sprintf("[offline] reply #%d to: %s", n, prompt) }

	if out, errOut, code := run(t, env, "/session attach S\nfrom repl\n"); code != 0 || !strings.Contains(out, reply(1, "from repl")) {
		t.Fatalf("REPL: exit %d\n%s\n%s", code, out, errOut)
	}
	gw := startGateway(t, gwEnv)
	sent := 0
	say := func(text, want string) {
		t.Helper()
		tg.Push(42, 4242, text)
		sent++
		if !tg.WaitSent(sent, 20*time.Second) {
			t.Fatalf("no answer to %q\n%s", text, gw.stderr.String())
		}
		if got := tg.Sent()[sent-1]; got.ChatID != 4242 || !strings.Contains(got.Text, want) {
			t.Fatalf("answer to %q: %+v, want %q in it", text, got, want)
		}
	}
	tg.Push(666, 666, "let me in")
	say("/session attach S", "S")
	say("from telegram", reply(2, "from telegram"))

	m := startMCP(t, env)
	if out, err := m.chat(t.Context(), "from mcp", "S"); err != nil || out.Reply != reply(3, "from mcp") {
		t.Fatalf("MCP: %+v, %v", out, err)
	}
	say("telegram again", reply(4, "telegram again"))
	gw.stop(t)
	if strings.Contains(gw.stderr.String(), "E2E-SECRET") {
		t.Fatalf("the token was logged:\n%s", gw.stderr.String())
	}
	if n := strings.Count(gw.stderr.String(), "user 666"); n != 1 {
		t.Fatalf("the unknown sender was logged %d times:\n%s", n, gw.stderr.String())
	}

	gw = startGateway(t, gwEnv)
	say("after restart", reply(5, "after restart"))
	gw.stop(t)
	if got := len(tg.Sent()); got != sent {
		t.Fatalf("%d messages sent for %d received: one was served twice", got, sent)
	}
	for _, s := range tg.Sent() {
		if s.ChatID == 666 {
			t.Fatalf("the unknown sender got %q", s.Text)
		}
	}

	show, errOut, code := run(t, env, "", "session", "show", "S", "--json")
	var d doc
	if code != 0 || json.Unmarshal([]byte(show), &d) != nil {
		t.Fatalf("session show S: exit %d\n%s\n%s", code, show, errOut)
	}
	var got, want []string
	for _, m := range d.ChatHistory {
		got = append(got, m.Role+": "+m.Content)
	}
	for i, p := range []string{"from repl", "from telegram", "from mcp", "telegram again", "after restart"} {
		want = append(want, "user: "+p, "assistant: "+reply(i+1, p))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("session S holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGatewayCheck(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir()}
	if _, errOut, code := run(t, env, "", "gateway", "--check"); code != exitUsage || !strings.Contains(errOut, "no channel is configured") {
		t.Fatalf("no channel: exit %d\n%s", code, errOut)
	}
	out, errOut, code := run(t, append(env, "CHATCLI_TELEGRAM_BOT_TOKEN="+telegramToken), "", "gateway", "--check")
	if code != 0 || !strings.Contains(out, "valid") || !strings.Contains(errOut, "answers nobody") || strings.Contains(out+errOut, "SECRET") {
		t.Fatalf("telegram without an allow-list: exit %d\n%s\n%s", code, out, errOut)
	}
	if out, _, _ := run(t, append(env, "CHATCLI_TELEGRAM_BOT_TOKEN="+telegramToken), "", "config"); strings.Contains(out, telegramToken) {
		t.Fatalf("chatcli config shows the token:\n%s", out)
	}
	_, errOut, code = run(t, append(env, "CHATCLI_TELEGRAM_BOT_TOKEN=nocolon", "CHATCLI_TELEGRAM_API_URL=ftp://x"), "", "gateway", "--check")
	if code != exitUsage || !strings.Contains(errOut, "CHATCLI_TELEGRAM_API_URL") || strings.Contains(errOut, "nocolon") {
		t.Fatalf("bad settings: exit %d\n%s", code, errOut)
	}
	_, errOut, code = run(t, append(env, "CHATCLI_TELEGRAM_BOT_TOKEN="+telegramToken, "CHATCLI_TELEGRAM_ALLOWED_USERS=42,@alice"), "", "gateway", "--check")
	if code != exitUsage || !strings.Contains(errOut, `"@alice"`) || !strings.Contains(errOut, gateway.TelegramIDRule.String()) {
		t.Fatalf("a @username on the Telegram allow-list: exit %d\n%s", code, errOut)
	}
}

// TestGatewaySlackEndToEnd drives the daemon's Events API endpoint with
// requests signed as Slack signs them; replies go to a fake Web API on
// 127.0.0.1. A session attached from Slack continues in `chatcli -p
// --session` and back.
func TestGatewaySlackEndToEnd(t *testing.T) {
	const botToken, secret = "xoxb-E2E-SECRET", "E2E-SECRET-signing"
	home := t.TempDir()
	api := slacktest.New(botToken)
	defer api.Close()
	addr := freeAddr(t)
	env := []string{"CHATCLI_HOME=" + home}
	gw := startGateway(t, append(env, "CHATCLI_SLACK_BOT_TOKEN="+botToken, "CHATCLI_SLACK_SIGNING_SECRET="+secret,
		"CHATCLI_SLACK_ADDR="+addr, "CHATCLI_SLACK_ALLOWED_USERS=U1", "CHATCLI_SLACK_API_URL="+api.APIURL()))
	post := func(body []byte) int {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/slack/events", bytes.NewReader(body))
		slacktest.Sign(req.Header, secret, body, time.Now())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for deadline := time.Now().Add(20 * time.Second); post([]byte(`{"type":"url_verification","challenge":"c"}`)) != 200; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the endpoint never answered\n%s", gw.stderr.String())
		}
	}
	n := 0
	say := func(text, want string) {
		t.Helper()
		n++
		if code := post(slacktest.DirectMessage(fmt.Sprintf("Ev%d", n), "U1", "D1", text)); code != 200 {
			t.Fatalf("status %d", code)
		}
		if !api.WaitPosts(n, 20*time.Second) || !strings.Contains(api.Posts()[n-1].Text, want) {
			t.Fatalf("answer to %q: %+v, want %q\n%s", text, api.Posts(), want, gw.stderr.String())
		}
	}
	say("/session attach S", "S")
	say("from slack", "[offline] reply #1 to: from slack")
	if out, errOut, code := run(t, env, "", "-p", "from cli", "--session", "S"); code != 0 || !strings.Contains(out, "reply #2") {
		t.Fatalf("-p --session S: exit %d\n%s\n%s", code, out, errOut)
	}
	say("slack again", "[offline] reply #3 to: slack again")
	gw.stop(t)
	if strings.Contains(gw.stderr.String(), "SECRET") {
		t.Fatalf("a secret was logged:\n%s", gw.stderr.String())
	}
}

// freeAddr returns a 127.0.0.1 address nothing listens on.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestGatewayWhatsAppAndTelegramShareASession runs both channels in one
// daemon: a WhatsApp number (signed webhook notifications, replies to a
// fake Graph API) and a Telegram user attach the same session and see each
// other's turns.
func TestGatewayWhatsAppAndTelegramShareASession(t *testing.T) {
	const waToken, appSecret, phoneID = "EAAG-E2E-SECRET", "E2E-SECRET-app", "1065"
	graph := whatsapptest.New(waToken, phoneID)
	defer graph.Close()
	tg := telegramtest.New(telegramToken)
	defer tg.Close()
	addr := freeAddr(t)
	gw := startGateway(t, []string{"CHATCLI_HOME=" + t.TempDir(),
		"CHATCLI_TELEGRAM_BOT_TOKEN=" + telegramToken, "CHATCLI_TELEGRAM_ALLOWED_USERS=42", "CHATCLI_TELEGRAM_API_URL=" + tg.URL,
		"CHATCLI_WHATSAPP_ACCESS_TOKEN=" + waToken, "CHATCLI_WHATSAPP_PHONE_ID=" + phoneID, "CHATCLI_WHATSAPP_VERIFY_TOKEN=v",
		"CHATCLI_WHATSAPP_APP_SECRET=" + appSecret, "CHATCLI_WHATSAPP_ADDR=" + addr, "CHATCLI_WHATSAPP_ALLOWED_USERS=+5511999990000",
		"CHATCLI_WHATSAPP_GRAPH_URL=" + graph.GraphURL()})
	url := "http://" + addr + "/whatsapp/webhook"
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(url + "?hub.mode=subscribe&hub.verify_token=v&hub.challenge=7"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the webhook never answered\n%s", gw.stderr.String())
		}
	}
	wa := 0
	whatsApp := func(text, want string) {
		t.Helper()
		wa++
		body := whatsapptest.Notification(phoneID, "5511999990000", fmt.Sprintf("wamid.%d", wa), text)
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		whatsapptest.Sign(req.Header, appSecret, body)
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
			t.Fatalf("webhook: %v %v", resp, err)
		}
		if !graph.WaitSent(wa, 20*time.Second) || !strings.Contains(graph.Sent()[wa-1].Body, want) {
			t.Fatalf("answer to %q: %+v, want %q\n%s", text, graph.Sent(), want, gw.stderr.String())
		}
	}
	telegram := func(n int, text, want string) {
		t.Helper()
		tg.Push(42, 42, text)
		if !tg.WaitSent(n, 20*time.Second) || !strings.Contains(tg.Sent()[n-1].Text, want) {
			t.Fatalf("answer to %q: %+v, want %q\n%s", text, tg.Sent(), want, gw.stderr.String())
		}
	}
	whatsApp("/session attach S", "S")
	whatsApp("from whatsapp", "reply #1 to: from whatsapp")
	telegram(1, "/session attach S", "S")
	telegram(2, "from telegram", "reply #2 to: from telegram")
	whatsApp("whatsapp again", "reply #3 to: whatsapp again")
	gw.stop(t)
}
