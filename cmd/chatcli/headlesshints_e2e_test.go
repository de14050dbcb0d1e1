package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadlessErrorsNameHeadlessCommands: the errors of chatcli's verbs
// name the chatcli command that numbers or lists what they refer to, in
// English and in Portuguese, never a slash command alone; the REPL's own
// error keeps naming its slash command.
func TestHeadlessErrorsNameHeadlessCommands(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "a.txt"), []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := []string{"CHATCLI_HOME=" + home}
	if _, errOut, code := run(t, base, "one\n/session save s\n"); code != 0 {
		t.Fatalf("setup: exit %d: %s", code, errOut)
	}
	run(t, base, "", "memory", "save", "a note")
	run(t, base, "", "context", "create", "c", filepath.Join(home, "a.txt"))
	for _, c := range []struct {
		args   []string
		en, pt string
	}{
		{[]string{"session", "fork", "s", "f", "--at", "0"},
			"--at 0: want a message number, 1 or more (`chatcli session export s md -` numbers them)",
			"--at 0: use um número de mensagem, 1 ou mais (`chatcli session export s md -` as numera)"},
		{[]string{"session", "fork", "s", "f", "--at", "99"},
			`99 (the transcript of "s" has 2 messages; ` + "`chatcli session export s md -` numbers them)",
			`99 (a transcrição de "s" tem 2 mensagens; ` + "`chatcli session export s md -` as numera)"},
		{[]string{"memory", "forget", "7"},
			"(there is 1 note; /memory list or `chatcli memory list` numbers them)",
			"(há 1 nota; /memory list ou `chatcli memory list` as numera)"},
		{[]string{"context", "show", "nope"},
			`"nope" (/context list or ` + "`chatcli context list` shows them)",
			`"nope" (/context list ou ` + "`chatcli context list` mostra os contextos)"},
		{[]string{"context", "create", "c", filepath.Join(home, "a.txt")},
			"(/context delete c, or `chatcli context delete c --yes`)",
			"(/context delete c, ou `chatcli context delete c --yes`)"},
	} {
		for lang, want := range map[string]string{"en": c.en, "pt-BR": c.pt} {
			_, errOut, code := run(t, append(base, "CHATCLI_LANG="+lang), "", c.args...)
			if code == 0 || !strings.Contains(errOut, want) || strings.Contains(errOut, "in the REPL") {
				t.Errorf("%s %v: exit %d, want %q in:\n%s", lang, c.args, code, want, errOut)
			}
		}
	}
	for lang, want := range map[string]string{"en": "as `chatcli session export SRC md -` numbers them",
		"pt-BR": "SRC, como `chatcli session export SRC md -` as numera"} {
		out, _, _ := run(t, append(base, "CHATCLI_LANG="+lang), "", "session", "fork", "--help")
		if !strings.Contains(out, want) || strings.Contains(out, "/session transcript") {
			t.Errorf("%s: the --at line of session fork --help:\n%s", lang, out)
		}
	}
	_, errOut, _ := run(t, base, "/session load s\n/session fork f --at 99\n")
	if !strings.Contains(errOut, "/session transcript show 1 lists them") {
		t.Errorf("the REPL's /session fork --at 99:\n%s", errOut)
	}
}
