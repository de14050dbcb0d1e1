package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAYesNoQuestionTakesTheLanguagesYes: in Portuguese the question
// offers [s/N] and "s" or "sim" agree, as "y" still does; in English only
// "y" or "yes" do, so an "s" there leaves the session where it is.
func TestAYesNoQuestionTakesTheLanguagesYes(t *testing.T) {
	for _, c := range []struct {
		lang, answer, ask string
		moved             bool
	}{
		{"pt-BR", "s\n", "Mover a sessão 'x' para a lixeira? [s/N] ", true},
		{"pt-BR", "sim\n", "[s/N] ", true},
		{"pt-BR", "y\n", "[s/N] ", true},
		{"pt-BR", "n\n", "[s/N] ", false},
		{"en", "s\n", `Move session "x" to the trash? [y/N] `, false},
		{"en", "yes\n", "[y/N] ", true},
	} {
		home := t.TempDir()
		if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "hello\n/session save x\n"); code != 0 {
			t.Fatalf("save: exit %d\n%s", code, errOut)
		}
		env := map[string]string{"CHATCLI_HOME": home, "CHATCLI_LANG": c.lang}
		var out, errb bytes.Buffer
		f := &factory{streams: &ioStreams{In: strings.NewReader(c.answer), InTTY: true, Out: &out, Err: &errb},
			getenv: func(k string) string { return env[k] }}
		cmd := newRootCmd(f, nil)
		cmd.SetArgs([]string{"session", "delete", "x"})
		err := cmd.ExecuteContext(context.Background())
		f.close()
		if err != nil {
			t.Fatalf("%s %q: %v\n%s", c.lang, c.answer, err, errb.String())
		}
		if !strings.Contains(errb.String(), c.ask) {
			t.Errorf("%s %q: asked %q, want %q in it", c.lang, c.answer, errb.String(), c.ask)
		}
		left, _ := filepath.Glob(filepath.Join(home, "sessions", "x.json"))
		if moved := len(left) == 0; moved != c.moved {
			t.Errorf("%s %q: moved to the trash = %v, want %v; stdout %q", c.lang, c.answer, moved, c.moved, out.String())
		}
	}
}
