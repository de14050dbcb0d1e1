package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestConfigShowsTheRootsProviderAndModel: chatcli --provider P --model
// M config shows the provider and model a conversation started with those
// flags uses, each with the flag as its source and the source it
// replaced, in English and in Portuguese; after the subcommand too.
func TestConfigShowsTheRootsProviderAndModel(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		lang string
		args []string
		want []string
	}{
		{"en", []string{"--model", "gpt-9", "config"}, []string{
			`OPENAI_MODEL +gpt-9 +command line \(--model; was: default\)`,
		}},
		{"pt-BR", []string{"--model", "gpt-9", "config"}, []string{
			`OPENAI_MODEL +gpt-9 +linha de comando \(--model; antes: padrão\)`,
		}},
		{"en", []string{"config", "--provider", "anthropic", "--model", "claude-x"}, []string{
			`LLM_PROVIDER +anthropic +command line \(--provider; was: environment\)`,
			`ANTHROPIC_MODEL +claude-x +command line \(--model; was: default\)`,
		}},
		{"pt-BR", []string{"--provider", "anthropic", "config"}, []string{
			`LLM_PROVIDER +anthropic +linha de comando \(--provider; antes: ambiente\)`,
		}},
	} {
		env := []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + c.lang, "LLM_PROVIDER=openai", "COLUMNS=200"}
		out, errOut, code := run(t, env, "", c.args...)
		if code != 0 {
			t.Fatalf("%s %q: exit %d\n%s", c.lang, c.args, code, errOut)
		}
		for _, w := range c.want {
			if !regexp.MustCompile(w).MatchString(out) {
				t.Errorf("%s %q: %s missing from:\n%s", c.lang, c.args, w, out)
			}
		}
	}
	out, _, _ := run(t, []string{"CHATCLI_HOME=" + home, "LLM_PROVIDER=openai"}, "", "config")
	if strings.Contains(out, "command line") {
		t.Errorf("config without flags names the command line:\n%s", out)
	}
}
