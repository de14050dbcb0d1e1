package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// acpAnswer is one prompt's answer as test/acpclient/prompts.mjs prints
// it: the stop reason and the agent text, or the JSON-RPC error.
type acpAnswer struct {
	Prompt     string
	StopReason string
	Text       string
	// Permissions are the session/request_permission requests the
	// prompt caused (the client rejects each).
	Permissions []struct {
		Title   string
		Options []string
	}
	Error *struct {
		Code    int
		Message string
	}
}

// String is the answer as JSON, for failure messages.
func (a acpAnswer) String() string {
	b, _ := json.Marshal(a)
	return string(b)
}

// acpPrompts sends prompts to one new thread of `chatcli acp` through the
// npm ACP client, chatcli running with env in home (its HOME), and
// returns the answers by prompt.
func acpPrompts(t *testing.T, home string, env []string, prompts ...string) map[string]acpAnswer {
	t.Helper()
	node, dir := needACPClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"prompts.mjs", binary}, prompts...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("node prompts.mjs: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	answers := map[string]acpAnswer{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var a acpAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		answers[a.Prompt] = a
	}
	if len(answers) != len(prompts) {
		t.Fatalf("%d answers to %d prompts:\n%s\n%s", len(answers), len(prompts), out.String(), errOut.String())
	}
	return answers
}

// TestACPSpeaksTheUsersLanguage drives `chatcli acp` with the npm ACP
// client in Portuguese (CHATCLI_LANG, LANG, the config file's lang) and
// in English: the replies to slash commands are the REPL's texts in that
// language, an unknown command is a reply that ends the turn, and the
// reasons of the refused commands are said in it too.
func TestACPSpeaksTheUsersLanguage(t *testing.T) {
	pt := map[string]string{
		"/session save x":   "Sessão 'x' salva com sucesso.\n",
		"/session list":     "NOME MENSAGENS ATUALIZADA TÍTULO",
		"/help":             "Digite uma mensagem para conversar. Comandos:\n",
		"/nosuch":           "erro: comando desconhecido /nosuch; /help lista os comandos\n",
		"/session delete x": "deletar precisa de confirmação: /session delete x --yes",
		"/exit":             "/exit não faz nada aqui; feche a thread no editor para encerrar a sessão",
	}
	en := map[string]string{
		"/session save x":   "Saved 2 messages as session \"x\"; later turns are saved there too.\n",
		"/session list":     "NAME MESSAGES UPDATED TITLE",
		"/help":             "Type a message to chat. Commands:\n",
		"/nosuch":           "error: unknown command /nosuch; /help lists the commands\n",
		"/session delete x": "deleting needs confirmation: /session delete x --yes",
		"/exit":             "/exit does nothing here; close the thread in the editor to end the session",
	}
	srv := slowEchoServer(t)
	for _, c := range []struct {
		name string
		env  []string
		file string // the config file's text
		want map[string]string
	}{
		{"CHATCLI_LANG=pt-BR", []string{"CHATCLI_LANG=pt-BR"}, "", pt},
		{"LANG=pt_BR.UTF-8", []string{"LANG=pt_BR.UTF-8"}, "", pt},
		{"config file", nil, "lang = \"pt-BR\"\n", pt},
		{"CHATCLI_LANG=en", []string{"CHATCLI_LANG=en"}, "", en},
		{"no language set", nil, "", en},
	} {
		home := t.TempDir()
		if c.file != "" {
			path := filepath.Join(home, ".config", "chatcli", "config.toml")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(c.file), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		env := append([]string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}, c.env...)
		got := acpPrompts(t, home, env, "hello", "/session save x", "/session list", "/help", "/nosuch", "/session delete x", "/exit")
		if a := got["hello"]; a.StopReason != "end_turn" || a.Text != "echo: hello" {
			t.Fatalf("%s: hello: %v", c.name, a)
		}
		for _, p := range []string{"/session save x", "/nosuch"} {
			if a := got[p]; a.Error != nil || a.StopReason != "end_turn" || a.Text != c.want[p] {
				t.Errorf("%s: %s: %v, want end_turn after %q", c.name, p, a, c.want[p])
			}
		}
		if a := got["/session list"]; a.StopReason != "end_turn" || strings.Join(strings.Fields(strings.SplitN(a.Text, "\n", 2)[0]), " ") != c.want["/session list"] {
			t.Errorf("%s: /session list: %v, want the columns %s", c.name, a, c.want["/session list"])
		}
		if a := got["/help"]; a.StopReason != "end_turn" || !strings.HasPrefix(a.Text, c.want["/help"]) {
			t.Errorf("%s: /help: %v, want a reply starting %q", c.name, a, c.want["/help"])
		}
		for _, p := range []string{"/session delete x", "/exit"} {
			if a := got[p]; a.Error == nil || a.Error.Code != -32602 || a.Error.Message != c.want[p] {
				t.Errorf("%s: %s: %v, want -32602 %q", c.name, p, a, c.want[p])
			}
		}
		// The REPL prints the same texts for the same lines.
		replEnv := append([]string{"HOME=" + home}, env...)
		out, errOut, _ := run(t, replEnv, "/help\n/nosuch\n")
		if out != got["/help"].Text || !strings.Contains(errOut, "\n"+c.want["/nosuch"]) {
			t.Errorf("%s: the REPL says otherwise:\n/help in ACP:\n%s\nREPL:\n%s\n%s", c.name, got["/help"].Text, out, errOut)
		}
	}
}

// TestACPAsksPermissionInTheUsersLanguage: in coder mode the write the
// model asks for is asked of the editor with the REPL's question, in
// Portuguese under CHATCLI_LANG=pt-BR and as before in English, its
// options named in the same language; the rejected write is not made.
func TestACPAsksPermissionInTheUsersLanguage(t *testing.T) {
	for lang, want := range map[string]string{
		"pt-BR": "Permitir write a.txt (3 B, new file)|Permitir|Sempre permitir nesta sessão|Recusar",
		"en":    "Allow write a.txt (3 B, new file)|Allow|Always allow for this session|Reject",
	} {
		srv := scriptServer(t, []scriptReply{
			{Calls: []scriptCall{{"call_w", "write_file", map[string]string{"path": "a.txt", "content": "hi\n"}}}},
			{Text: "not written"},
		}, nil)
		ws := t.TempDir()
		env := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m", "CHATCLI_LANG=" + lang, "ACPCLIENT_CWD=" + ws}
		got := acpPrompts(t, t.TempDir(), env, "/coder", "write it")["write it"]
		if got.StopReason != "end_turn" || len(got.Permissions) != 1 {
			t.Fatalf("%s: write it: %v", lang, got)
		}
		p := got.Permissions[0]
		if asked := strings.Join(append([]string{p.Title}, p.Options...), "|"); asked != want {
			t.Errorf("%s: the editor was asked %q, want %q", lang, asked, want)
		}
		if _, err := os.Stat(filepath.Join(ws, "a.txt")); !os.IsNotExist(err) {
			t.Errorf("%s: a.txt after a rejected write: %v", lang, err)
		}
	}
}
