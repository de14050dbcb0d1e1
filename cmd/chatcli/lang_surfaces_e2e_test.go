package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
		"pt-BR": {"Contexto 'c' criado: 1 arquivo, 4,7 KiB em ", "/context attach c o envia.\n", "não definido",
			"Mantidos:\n  autosave-20200101-000000: ilegível: arquivo de sessão ilegível: ",
			"orphan journals: não verificados: 1 arquivo(s) de sessão ilegível(is)"},
		"en": {"Created context \"c\": 1 file, 4.7 KiB in ", "/context attach c sends it.\n", "not set",
			"Kept:\n  autosave-20200101-000000: unreadable: session: unreadable file: ",
			"orphan journals: not checked: 1 session file(s) cannot be read"},
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
		size := regexp.MustCompile(`would delete 1 trashed session\(s\) \(\d+\.\d KB\)|apagaria de vez 1 sessão\(ões\) \(\d+,\d KB\)`)
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
