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
