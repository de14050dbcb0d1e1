package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchIndexRebuildSpeaksTheReadersLanguage: session search over a
// search index whose manifest was overwritten says why it rebuilt the
// index in Portuguese under CHATCLI_LANG=pt-BR (the kind of damage and
// what is wrong with the file, its path kept as it is), and in English as
// before; the search still finds the message.
func TestSearchIndexRebuildSpeaksTheReadersLanguage(t *testing.T) {
	home := t.TempDir()
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "", "-p", "hello index", "--name", "s1"); code != 0 {
		t.Fatalf("-p: exit %d\n%s", code, errOut)
	}
	manifest := filepath.Join(home, "index", "MANIFEST")
	for _, c := range []struct{ lang, want, english string }{
		{"en", "warning: index: damaged or foreign index file: " + manifest + " is not a chatcli index file; the search index is rebuilt\n", ""},
		{"pt-BR", "aviso: índice: arquivo do índice danificado ou de outro programa: " + manifest +
			" não é um arquivo de índice do chatcli; o índice de busca é refeito\n", "index file"},
	} {
		if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "", "session", "search", "hello"); code != 0 {
			t.Fatalf("search: exit %d\n%s", code, errOut)
		}
		if err := os.WriteFile(manifest, []byte("not an index file"), 0o600); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + c.lang}, "", "session", "search", "hello")
		if code != 0 || !strings.Contains(errOut, c.want) || !strings.Contains(out, "s1") {
			t.Errorf("%s: exit %d, want %q in:\n%s\nstdout:\n%s", c.lang, code, c.want, errOut, out)
		}
		if c.english != "" && strings.Contains(errOut, c.english) {
			t.Errorf("%s: English left in:\n%s", c.lang, errOut)
		}
	}
}
