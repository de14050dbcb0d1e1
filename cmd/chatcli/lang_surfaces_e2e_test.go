package main

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/gateway/slack/slacktest"
)

// TestPortugueseSizesContextsAndSettings: /context create's line, sizes
// with a decimal comma, the "not set" of chatcli config and the reasons
// storage prune keeps a session for are Portuguese under
// CHATCLI_LANG=pt-BR and as before in English; --json keeps its English
// reasons in both.
func TestPortugueseSizesContextsAndSettings(t *testing.T) {
	src := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(src, []byte(strings.Repeat("some words here\n", 300)), 0o600); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string][]string{
		"pt-BR": {"Contexto 'c' criado: 1 arquivo, 4,7 KiB em ", "/context attach c, no REPL ou num script enviado por pipe ao chatcli, o envia.\n", "não definido",
			"Mantidos:\n  autosave-20200101-000000: ilegível: arquivo de sessão ilegível: ",
			"orphan journals: não verificados: 1 arquivo de sessão ilegível, que pode nomear um"},
		"en": {"Created context \"c\": 1 file, 4.7 KiB in ", "/context attach c, in the REPL or a script piped to chatcli, sends it.\n", "not set",
			"Kept:\n  autosave-20200101-000000: unreadable: session: unreadable file: ",
			"orphan journals: not checked: 1 session file cannot be read"},
	} {
		home := t.TempDir()
		env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}
		var all strings.Builder
		for _, args := range [][]string{{"context", "create", "c", src}, {"config"}, {"-p", strings.Repeat("long prompt ", 1000), "--name", "x"},
			{"session", "delete", "x", "--yes"}, {"storage", "prune", "--empty-trash"}} {
			out, errOut, code := run(t, env, "", args...)
			if code != 0 {
				t.Fatalf("%s %v: exit %d\n%s", lang, args[:1], code, errOut)
			}
			all.WriteString(out)
		}
		if err := os.WriteFile(filepath.Join(home, "sessions", "autosave-20200101-000000.json"), []byte("garbage"), 0o600); err != nil {
			t.Fatal(err)
		}
		out, _, _ := run(t, env, "", "storage", "prune")
		all.WriteString(out)
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
		size := regexp.MustCompile(`would delete 1 trashed session \(\d+\.\d KB\)|apagaria de vez 1 sessão \(\d+,\d KB\)`)
		if !size.MatchString(all.String()) {
			t.Errorf("%s: the trash's size:\n%s", lang, all.String())
		}
		js, _, _ := run(t, env, "", "storage", "prune", "--json")
		if !strings.Contains(js, `"why": "unreadable: session: unreadable file: `) {
			t.Errorf("%s: --json:\n%s", lang, js)
		}
	}
}

// TestSessionFormatErrorsSpeakPortuguese: why a session file cannot be
// read is said in Portuguese under CHATCLI_LANG=pt-BR, as before in
// English, with the same exit code (4, unreadable) in both.
func TestSessionFormatErrorsSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"empty": "", "obj": `{"version":2,"chat_history":{}}`} {
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for lang, want := range map[string][]string{
		"pt-BR": {"empty.json: o arquivo está vazio (0 bytes); tire-o do lugar",
			`obj.json: não é um documento de sessão: o campo "chat_history" é um objeto, não uma lista de mensagens; tire-o`},
		"en": {"empty.json: file is empty (0 bytes); move it aside",
			`obj.json: not a session document: field "chat_history" is an object, not an array of messages; move it`},
	} {
		for i, name := range []string{"empty", "obj"} {
			_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, "", "session", "show", name)
			if code != exitData || !strings.Contains(errOut, want[i]) {
				t.Errorf("%s %s: exit %d, want %d and %q:\n%s", lang, name, code, exitData, want[i], errOut)
			}
		}
	}
}

// TestServerNoticesSpeakPortuguese: mcp-server's start line, gateway
// --check's lines and the gateway daemon's notices (its start, the hub
// relay, a sender not on the allow-list) are Portuguese under
// CHATCLI_LANG=pt-BR and as before in English.
func TestServerNoticesSpeakPortuguese(t *testing.T) {
	for lang, want := range map[string][]string{
		"pt-BR": {"nota: chatcli " + version + " servidor MCP no stdio · provedor offline · modelo offline · armazenamento ",
			"as configurações do gateway são válidas\n", "slack: Events API em http://", "responde a 1 id permitido (CHATCLI_SLACK_ALLOWED_USERS)",
			"nota: chatcli " + version + " gateway · provedor offline", "nota: hub: os terminais entram com /hub join NOME (relay em ",
			"nota: slack: mensagem do usuário U2 (chat D1) ignorada: fora da allow-list de slack"},
		"en": {"note: chatcli " + version + " MCP server on stdio · provider offline · model offline · store ",
			"gateway settings are valid\n", "slack: Events API on http://", "answers 1 allowed id (CHATCLI_SLACK_ALLOWED_USERS)",
			"note: chatcli " + version + " gateway · provider offline", "note: hub: terminals join with /hub join NAME (relay at ",
			"note: slack: message from user U2 (chat D1) ignored: not on the slack allow-list"},
	} {
		const botToken, secret = "xoxb-E2E-SECRET", "E2E-SECRET-signing"
		api := slacktest.New(botToken)
		defer api.Close()
		addr := freeAddr(t)
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "CHATCLI_LANG=" + lang, "CHATCLI_SLACK_BOT_TOKEN=" + botToken,
			"CHATCLI_SLACK_SIGNING_SECRET=" + secret, "CHATCLI_SLACK_ADDR=" + addr, "CHATCLI_SLACK_ALLOWED_USERS=U1", "CHATCLI_SLACK_API_URL=" + api.APIURL()}
		var all strings.Builder
		_, errOut, _ := run(t, env, "", "mcp-server")
		all.WriteString(errOut)
		out, errOut, code := run(t, env, "", "gateway", "--check")
		if code != 0 {
			t.Fatalf("%s: gateway --check: exit %d\n%s", lang, code, errOut)
		}
		all.WriteString(out + errOut)
		gw := startGateway(t, env)
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
		for deadline := time.Now().Add(20 * time.Second); post(slacktest.DirectMessage("Ev1", "U2", "D1", "hi")) != 200; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the endpoint never answered\n%s", lang, gw.stderr.String())
			}
		}
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(gw.stderr.String(), "U2") && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
		gw.stop(t)
		all.WriteString(gw.stderr.String())
		for _, w := range want {
			if !strings.Contains(all.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, all.String())
			}
		}
	}
}
