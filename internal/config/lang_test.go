package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
)

// A bad setting is said in Portuguese, its names and values as they are;
// the English text is unchanged.
func TestBadSettingsAreSaidInPortuguese(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	_, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_SESSION_TTL": "abc"}))
	if err == nil || !strings.Contains(err.Error(), `CHATCLI_SESSION_TTL="abc": want days such as 90d`) {
		t.Fatalf("%v", err)
	}
	if got := pt.Error(err, nil); !strings.Contains(got, `CHATCLI_SESSION_TTL="abc": esperados dias como 90d ou 30`) {
		t.Errorf("%q", got)
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("bogus_key = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadFile(path)
	if err == nil || !strings.Contains(err.Error(), `:1: "bogus_key" names no setting (chatcli config init writes`) {
		t.Fatalf("%v", err)
	}
	if got := pt.Error(err, nil); !strings.Contains(got, `:1: "bogus_key" não é o nome de nenhuma configuração (chatcli config init grava`) {
		t.Errorf("%q", got)
	}
}

// The settings whose value is prose say it in Portuguese, and in English
// exactly as Value has it.
func TestProseValuesAreSaid(t *testing.T) {
	pt := i18n.New(i18n.Portuguese)
	c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h"}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"CHATCLI_CONTEXT_WINDOW":       "pelo modelo",
		"HISTORY_MAX_SIZE":             "100MB (104.857.600 bytes; no máximo 1.000 linhas)",
		"CHATCLI_MCP_SESSION_AUTOSAVE": "como CHATCLI_SESSION_AUTOSAVE",
		"BEDROCK_REGION":               "AWS_REGION, senão AWS_DEFAULT_REGION, senão us-east-1",
	}
	seen := 0
	for _, s := range append(c.SessionSettings(), c.AllSettings()...) {
		w, ok := want[s.Name]
		if !ok || s.Said.IsZero() {
			continue
		}
		seen++
		if s.Said.String() != s.Value {
			t.Errorf("%s: English %q, Value %q", s.Name, s.Said.String(), s.Value)
		}
		if got := pt.Text(s.Said); got != w {
			t.Errorf("%s: %q, want %q", s.Name, got, w)
		}
	}
	if seen < len(want) {
		t.Errorf("%d of the %d prose values said", seen, len(want))
	}
}
