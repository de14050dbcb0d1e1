package importer

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestErrorsAndProblemsSpeakPortuguese: the importer's errors and the
// reasons of its skipped lines read as before in English and are said in
// Portuguese by Printer.Error, names and paths kept; the sentinels still
// match through errors.Is.
func TestErrorsAndProblemsSpeakPortuguese(t *testing.T) {
	en, pt := i18n.New(i18n.English), i18n.New(i18n.Portuguese)
	dir := t.TempDir()
	lines, odd := filepath.Join(dir, "s.jsonl"), filepath.Join(dir, "odd.json")
	os.WriteFile(lines, []byte("not json\n{\"other\":1}\n"), 0o600)
	os.WriteFile(odd, []byte(`{"info":{"id":"ses_1"},"messages":[{"info":{"role":"robot"},"parts":[]}]}`), 0o600)
	os.WriteFile(filepath.Join(dir, "imports.json"), []byte(`{"version":7}`), 0o600)

	_, err := Lookup("vscode")
	_, noFiles := opencode.Files(func(string) string { return "" }, nil)
	_, corrupt := OpenRecord(dir)
	_, claudeProblems, _ := claudeCode.Read(lines)
	_, odProblems, _ := opencode.Read(odd)
	if len(claudeProblems) != 2 || len(odProblems) != 1 {
		t.Fatalf("problems %v %v", claudeProblems, odProblems)
	}
	for _, c := range []struct {
		err    error
		is     error
		en, pt string
	}{
		{err, ErrUnknownTool, `importer: unknown tool "vscode": one of claude-code, codex, gemini, opencode`,
			`importação: ferramenta desconhecida "vscode": use uma de claude-code, codex, gemini, opencode`},
		{noFiles, nil, "importer: opencode keeps no files chatcli can find; name the files to read (e.g. what `opencode export` wrote)",
			"importação: opencode não guarda arquivos que o chatcli consiga encontrar; indique os arquivos a ler (por exemplo, o que o `opencode export` gravou)"},
		{corrupt, ErrCorrupt, "importer: damaged import record: " + filepath.Join(dir, "imports.json") + ": version 7, want 1 (move it aside to start a new one)",
			"importação: registro de importações danificado: " + filepath.Join(dir, "imports.json") + ": versão 7, o esperado é 1 (tire-o do lugar para começar um novo)"},
		{claudeProblems[0].Reason, nil, "not JSON (invalid character 'o' in literal null (expecting 'u')); skipped",
			"não é JSON (JSON inválido no byte 2); linha pulada"},
		{claudeProblems[1].Reason, nil, "not a line this tool writes; skipped", "não é uma linha que esta ferramenta grava; linha pulada"},
		{odProblems[0].Reason, nil, `messages[0]: role "robot" is not opencode's; skipped`, `messages[0]: o papel "robot" não é do opencode; mensagem pulada`},
	} {
		if c.err == nil {
			t.Fatalf("no error, want %q", c.en)
		}
		if got := en.Error(c.err, nil); got != c.en || c.err.Error() != c.en {
			t.Errorf("English %q, want %q", got, c.en)
		}
		if got := pt.Error(c.err, nil); got != c.pt {
			t.Errorf("Portuguese %q, want %q", got, c.pt)
		}
		if c.is != nil && !errors.Is(c.err, c.is) {
			t.Errorf("%q is not %q", c.err, c.is)
		}
	}
	if got, want := claudeProblems[1].String(), lines+":2: not a line this tool writes; skipped"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
}
