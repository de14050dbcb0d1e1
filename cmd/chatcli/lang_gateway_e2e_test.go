package main

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway/slack/slacktest"
)

// TestGatewayChatRepliesSpeakPortuguese: what chatcli gateway itself says
// into a chat (/help, /session and /hub answers, a refused command, an
// error) and its endpoint's start line are Portuguese when the gateway
// runs under CHATCLI_LANG=pt-BR, and as before in English.
func TestGatewayChatRepliesSpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"Mande uma mensagem para conversar.", "Em nenhuma thread do hub; /hub join NOME entra numa.",
			"Entrou na thread do hub 'T' (1 membro, 0 turnos recentes).", "Saiu da thread do hub 'T'.",
			"Sessões não podem ser apagadas de um chat;", "/model x não está disponível num chat; /help lista o que está.",
			"uso: /hub [join NOME | leave]", "Nenhuma sessão vinculada (0 mensagens", "erro: nome de sessão inválido"},
		"en": {"Send a message to talk.", "In no hub thread; /hub join NAME joins one.",
			`Joined hub thread "T" (1 member, 0 recent turns).`, `Left hub thread "T".`,
			"Deleting a session is not possible from a chat;", "/model x is not available in a chat; /help lists what is.",
			"usage: /hub [join NAME | leave]", "No session bound (0 messages", "error: session: invalid name"},
	} {
		const botToken, secret = "xoxb-E2E-SECRET", "E2E-SECRET-signing"
		api := slacktest.New(botToken)
		defer api.Close()
		addr := freeAddr(t)
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_SLACK_BOT_TOKEN=" + botToken,
			"CHATCLI_SLACK_SIGNING_SECRET=" + secret, "CHATCLI_SLACK_ADDR=" + addr, "CHATCLI_SLACK_ALLOWED_USERS=U1", "CHATCLI_SLACK_API_URL=" + api.APIURL()}
		gw := startGateway(t, env)
		post := func(id, text string) int {
			body := slacktest.DirectMessage(id, "U1", "D1", text)
			req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/slack/events", bytes.NewReader(body))
			slacktest.Sign(req.Header, secret, body, time.Now())
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return 0
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		for deadline := time.Now().Add(20 * time.Second); post("Ev0", "/help") != 200; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the endpoint never answered\n%s", lang, gw.stderr.String())
			}
		}
		lines := []string{"/hub", "/hub join T", "/hub leave", "/session delete x", "/model x", "/hub x y z", "/session status", "/session attach ../x"}
		for i, line := range lines {
			if !api.WaitPosts(i+1, 10*time.Second) {
				t.Fatalf("%s: no answer to message %d\n%s", lang, i, gw.stderr.String())
			}
			post("Ev"+string(rune('a'+i)), line)
		}
		if !api.WaitPosts(len(lines)+1, 10*time.Second) {
			t.Fatalf("%s: no answer to the last message\n%s", lang, gw.stderr.String())
		}
		gw.stop(t)
		var all strings.Builder
		for _, p := range api.Posts() {
			all.WriteString(p.Text + "\n")
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from the replies:\n%s", lang, w, all.String())
			}
		}
		start := map[string]string{"pt-BR": "slack: Events API em http://", "en": "slack: Events API on http://"}[lang] + addr + "/slack/events\n"
		if !strings.Contains(gw.stderr.String(), start) {
			t.Errorf("%s: %q missing from:\n%s", lang, start, gw.stderr.String())
		}
	}
}

// TestGatewaySettingErrorsSpeakPortuguese: gateway --check's and gateway
// send's setting errors are Portuguese under CHATCLI_LANG=pt-BR, each
// line of them, and as before in English, exiting 2 (usage) in both.
func TestGatewaySettingErrorsSpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"chatcli: configuração inválida: CHATCLI_TELEGRAM_BOT_TOKEN não é um token de bot (<id do bot>:<segredo>, do @BotFather)\n",
			`configuração inválida: CHATCLI_TELEGRAM_ALLOWED_USERS contém "@bob": os ids de usuário e de chat do Telegram são inteiros`,
			"configuração inválida: CHATCLI_SLACK_SIGNING_SECRET não está definida: não haveria como verificar as requisições\n",
			`configuração inválida: CHATCLI_SLACK_ADDR="zz" não é host:porta (`, `configuração inválida: CHATCLI_SLACK_PATH="p" precisa começar com /`,
			`chatcli: configuração inválida: "nowhere" não nomeia um canal (telegram, slack, whatsapp, ou <canal>:<id do chat>)`},
		"en": {"chatcli: config: invalid setting: CHATCLI_TELEGRAM_BOT_TOKEN is not a bot token (<bot id>:<secret>, from @BotFather)\n",
			`config: invalid setting: CHATCLI_TELEGRAM_ALLOWED_USERS holds "@bob": Telegram user and chat ids are integers`,
			"config: invalid setting: CHATCLI_SLACK_SIGNING_SECRET is not set: requests could not be verified\n",
			`config: invalid setting: CHATCLI_SLACK_ADDR="zz" is not host:port (`, `config: invalid setting: CHATCLI_SLACK_PATH="p" must start with /`,
			`chatcli: config: invalid setting: "nowhere" names no channel (telegram, slack, whatsapp, or <channel>:<chat id>)`},
	} {
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_TELEGRAM_BOT_TOKEN=abc", "CHATCLI_TELEGRAM_ALLOWED_USERS=@bob",
			"CHATCLI_SLACK_BOT_TOKEN=x", "CHATCLI_SLACK_ADDR=zz", "CHATCLI_SLACK_PATH=p"}
		var all strings.Builder
		for _, args := range [][]string{{"gateway", "--check"}, {"gateway", "send", "nowhere", "hi"}} {
			_, errOut, code := run(t, env, "", args...)
			if code != exitUsage {
				t.Errorf("%s %v: exit %d, want %d\n%s", lang, args, code, exitUsage, errOut)
			}
			all.WriteString(errOut)
		}
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}
