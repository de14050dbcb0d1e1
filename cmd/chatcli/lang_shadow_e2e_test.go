package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/shadow"
)

// TestRewindCodeErrorsSpeakTheReadersLanguage: a file restore whose
// checkpoint store is damaged (the state file overwritten) fails with the
// file checkpoints' error said in Portuguese under CHATCLI_LANG=pt-BR,
// the path kept as it is, and in English as before; the file is left
// alone.
func TestRewindCodeErrorsSpeakTheReadersLanguage(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "n.txt"), []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := scriptServer(t, []scriptReply{
		{Calls: []scriptCall{{"w", "write_file", map[string]string{"path": "n.txt", "content": "after"}}}},
		{Text: "ok"},
	}, nil)
	env := map[string]string{"CHATCLI_HOME": home, "OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_MODEL": "m"}
	if _, errOut, err := runIn(t, env, ws, "-p", "write", "--coder", "--agent-auto-exec", "--session", "s"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	state := filepath.Join(shadow.RepoDir(home, ws), "state")
	if err := os.WriteFile(state, []byte("not a manifest"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ lang, want, english string }{
		{"en", "shadow: damaged manifest: " + state + ": no manifest header or torn end", ""},
		{"pt-BR", "checkpoints de arquivos: manifesto danificado: " + state + ": sem o cabeçalho do manifesto ou com o fim cortado",
			"damaged manifest"},
	} {
		_, errOut, code := runAt(t, ws, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + c.lang, "OPENAI_MODEL=m"}, "",
			"session", "rewind", "s", "--to", "1", "--code", "--yes")
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, want %q in:\n%s", c.lang, code, c.want, errOut)
		}
		if c.english != "" && strings.Contains(errOut, c.english) {
			t.Errorf("%s: English left in:\n%s", c.lang, errOut)
		}
	}
	if got := readOr(filepath.Join(ws, "n.txt")); got != "after" {
		t.Errorf("n.txt: %q", got)
	}
}
