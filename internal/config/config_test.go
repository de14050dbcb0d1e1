package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestProviderSelection(t *testing.T) {
	cases := []struct {
		env             map[string]string
		provider, model string
	}{
		{map[string]string{}, ProviderOffline, "offline"},
		{map[string]string{"OPENAI_API_KEY": "k"}, ProviderOpenAI, DefaultOpenAIModel},
		{map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1", "OPENAI_MODEL": "llama3.2"}, ProviderOpenAI, "llama3.2"},
		{map[string]string{"ANTHROPIC_API_KEY": "k"}, ProviderAnthropic, DefaultAnthropicModel},
		{map[string]string{"ANTHROPIC_API_KEY": "k", "LLM_PROVIDER": "OFFLINE"}, ProviderOffline, "offline"},
	}
	for _, c := range cases {
		c.env["CHATCLI_HOME"] = "/h"
		got, err := FromEnv(env(c.env))
		if err != nil || got.Provider != c.provider || got.Model != c.model {
			t.Errorf("%v: got %s/%s (%v), want %s/%s", c.env, got.Provider, got.Model, err, c.provider, c.model)
		}
	}
}

func TestOverrideUsesTheProvidersOwnModel(t *testing.T) {
	c, _ := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "ANTHROPIC_MODEL": "claude-x"}))
	if err := c.Override(ProviderAnthropic, ""); err != nil || c.Model != "claude-x" {
		t.Fatalf("%v %s", err, c.Model)
	}
	if err := c.Override(ProviderOpenAI, "gpt-x"); err != nil || c.Model != "gpt-x" {
		t.Fatalf("%v %s", err, c.Model)
	}
	if err := c.Override("copilot", ""); !errors.Is(err, ErrConfig) {
		t.Fatalf("unknown provider: %v", err)
	}
}

func TestAliasesAndPaths(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "OPENAI_API_URL": "http://127.0.0.1:8080/v1/chat/completions"}))
	if err != nil || c.OpenAIBaseURL != "http://127.0.0.1:8080/v1/chat/completions" || c.Provider != ProviderOpenAI {
		t.Fatalf("alias: %+v %v", c, err)
	}
	if c.SessionsDir() != filepath.Join("/h", "sessions") || c.HistoryFile != filepath.Join("/h", "history") || !c.Autosave {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestBadValuesAreRefusedWithTheVariableName(t *testing.T) {
	for k, v := range map[string]string{"CHATCLI_REQUEST_TIMEOUT": "soon", "CHATCLI_SESSION_AUTOSAVE": "maybe"} {
		_, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", k: v}))
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
	c, _ := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_SESSION_AUTOSAVE": "off"}))
	if c.Autosave {
		t.Fatal("autosave off")
	}
}

// HISTORY_MAX_SIZE is a byte size as ChatCLI reads it; a value neither
// reads stops only the history (HistoryErr), not the configuration.
func TestHistoryMaxSizeIsChatCLIsByteSize(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "HISTORY_MAX_SIZE": "300MB"}))
	if err != nil || c.HistoryMaxBytes != 300<<20 || c.HistoryErr != nil || c.HistoryMax != DefaultHistoryMax {
		t.Fatalf("%v %d %v", err, c.HistoryMaxBytes, c.HistoryErr)
	}
	c, err = FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "HISTORY_MAX_SIZE": "lots"}))
	if err != nil || c.HistoryErr == nil || !strings.Contains(c.HistoryErr.Error(), `HISTORY_MAX_SIZE: config: invalid setting: "lots" is not a size`) {
		t.Fatalf("%v %v", err, c.HistoryErr)
	}
	if c, _ = FromEnv(env(map[string]string{"CHATCLI_HOME": "/h"})); c.HistoryMaxBytes != DefaultHistoryMaxBytes {
		t.Fatalf("default %d", c.HistoryMaxBytes)
	}
}

func TestContextWindowPerModel(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_CONTEXT_WINDOW": "gpt-4o=128000, llama3.2=8192,32000"}))
	if err != nil || c.ContextWindowFor("llama3.2") != 8192 || c.ContextWindowFor("gpt-4o") != 128000 || c.ContextWindowFor("other") != 32000 {
		t.Fatalf("%v %+v", err, c.ContextWindows)
	}
	for _, bad := range []string{"lots", "gpt-4o=", "=4096", "512"} {
		if _, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_CONTEXT_WINDOW": bad})); !errors.Is(err, ErrConfig) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestMCPAutosaveFollowsTheSessionAutosaveUnlessSet(t *testing.T) {
	source := func(c Config) string {
		for _, s := range c.SessionSettings() {
			if s.Name == "CHATCLI_MCP_SESSION_AUTOSAVE" {
				return s.Value + " " + s.Source
			}
		}
		return "missing"
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "on default"},
		{map[string]string{"CHATCLI_SESSION_AUTOSAVE": "off"}, "off follows CHATCLI_SESSION_AUTOSAVE"},
		{map[string]string{"CHATCLI_SESSION_AUTOSAVE": "off", "CHATCLI_MCP_SESSION_AUTOSAVE": "ON"}, "on environment"},
		{map[string]string{"CHATCLI_MCP_SESSION_AUTOSAVE": "0"}, "off environment"},
	} {
		tc.env["CHATCLI_HOME"] = "/h"
		c, err := FromEnv(env(tc.env))
		if err != nil || source(c) != tc.want {
			t.Errorf("%v: %q (%v), want %q", tc.env, source(c), err, tc.want)
		}
	}
	_, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_MCP_SESSION_AUTOSAVE": "sometimes"}))
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "CHATCLI_MCP_SESSION_AUTOSAVE") {
		t.Fatalf("bad value: %v", err)
	}
}

func TestChatCLIBooleansAndHome(t *testing.T) {
	for v, want := range map[string]bool{"enabled": true, "Disabled": false, "enable": true, "disable": false} {
		c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "CHATCLI_SESSION_AUTOSAVE": v}))
		if err != nil || c.Autosave != want {
			t.Errorf("%s: %v %v", v, c.Autosave, err)
		}
	}
	c, _ := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "HOME": "/home/u", "HISTORY_FILE": "~/.chatcli_history"}))
	if c.HistoryFile != "/home/u/.chatcli_history" {
		t.Fatalf("HISTORY_FILE: %s", c.HistoryFile)
	}
}

// .env in the working folder, or the file CHATCLI_DOTENV names, fills in
// what the process environment does not set.
func TestDotenv(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".env"), []byte("# ChatCLI's file\nLLM_PROVIDER=CLAUDEAI\nCLAUDEAI_API_KEY=\"sk-env\"\nOPENAI_MODEL=from-file\n"), 0o600)
	proc := map[string]string{"OPENAI_MODEL": "from-process"}
	lookup := func(k string) (string, bool) { v, ok := proc[k]; return v, ok }
	getenv, path, err := Dotenv(lookup, dir)
	if err != nil || path != filepath.Join(dir, ".env") || getenv("LLM_PROVIDER") != "CLAUDEAI" || getenv("CLAUDEAI_API_KEY") != "sk-env" || getenv("OPENAI_MODEL") != "from-process" {
		t.Fatalf("%v %s %q", err, path, getenv("OPENAI_MODEL"))
	}
	other := filepath.Join(t.TempDir(), "chatcli.env")
	os.WriteFile(other, []byte("LLM_PROVIDER=OLLAMA\n"), 0o600)
	proc = map[string]string{EnvDotenv: other}
	if getenv, _, err = Dotenv(lookup, dir); err != nil || getenv("LLM_PROVIDER") != "OLLAMA" {
		t.Fatalf("CHATCLI_DOTENV: %v %q", err, getenv("LLM_PROVIDER"))
	}
	proc = map[string]string{EnvDotenv: filepath.Join(dir, "missing.env")}
	if _, _, err = Dotenv(lookup, dir); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "missing.env") {
		t.Fatalf("missing file: %v", err)
	}
	if _, path, err = Dotenv(func(string) (string, bool) { return "", false }, t.TempDir()); err != nil || path != "" {
		t.Fatalf("no .env: %v %q", err, path)
	}
	os.WriteFile(filepath.Join(dir, ".env"), []byte("A='unterminated\n"), 0o600)
	proc = nil
	if getenv, _, err = Dotenv(lookup, dir); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), ".env") || getenv("A") != "" {
		t.Fatalf("bad file: %v", err)
	}
}

// chatcli config says the model in use and, when it is a default that
// differs from ChatCLI's, ChatCLI's.
func TestModelSettingNamesChatCLIDefault(t *testing.T) {
	for _, c := range []struct{ env, name, value, source string }{
		{"OPENAI_API_KEY", "OPENAI_MODEL", DefaultOpenAIModel, "default (ChatCLI's default is gpt-5.4)"},
		{"ANTHROPIC_API_KEY", "ANTHROPIC_MODEL", DefaultAnthropicModel, "default (ChatCLI's default is claude-sonnet-4-6)"},
	} {
		cfg, _ := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", c.env: "k"}))
		got := cfg.SessionSettings()
		if last := got[len(got)-1]; last.Name != c.name || last.Value != c.value || last.Source != c.source {
			t.Errorf("%s: %+v", c.env, last)
		}
	}
	cfg, _ := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "LLM_PROVIDER": "OLLAMA", "OLLAMA_MODEL": "llama3"}))
	got := cfg.SessionSettings()
	if last := got[len(got)-1]; last.Name != "OLLAMA_MODEL" || last.Value != "llama3" || last.Source != "environment" {
		t.Errorf("ollama: %+v", last)
	}
}
