package config

import (
	"errors"
	"strings"
	"testing"
)

func TestProvidersAsChatCLIUsersNameThem(t *testing.T) {
	for _, tt := range []struct {
		env                   map[string]string
		provider, model, base string
	}{
		{map[string]string{"LLM_PROVIDER": "CLAUDEAI", "CLAUDEAI_API_KEY": "k", "CLAUDEAI_MODEL": "claude-x"}, ProviderAnthropic, "claude-x", ""},
		{map[string]string{"LLM_PROVIDER": "OLLAMA", "OLLAMA_BASE_URL": "http://127.0.0.1:11434", "OLLAMA_MODEL": "qwen3"}, "ollama", "qwen3", "http://127.0.0.1:11434/v1"},
		{map[string]string{"LLM_PROVIDER": "Ollama"}, "ollama", "gpt-oss:20b", "http://localhost:11434/v1"},
		{map[string]string{"LLM_PROVIDER": "XAI", "XAI_API_KEY": "k"}, "xai", "grok-3-mini", "https://api.x.ai/v1"},
		{map[string]string{"LLM_PROVIDER": "OPENROUTER", "OPENROUTER_MODEL": "deepseek/deepseek-r1"}, "openrouter", "deepseek/deepseek-r1", "https://openrouter.ai/api/v1"},
		{map[string]string{"LLM_PROVIDER": "GITHUB_MODELS", "GITHUB_TOKEN": "t"}, "github_models", "openai/gpt-4o-mini", "https://models.github.ai/inference"},
		{map[string]string{"LLM_PROVIDER": "GEMINI", "GEMINI_API_KEY": "k"}, ProviderGoogleAI, DefaultGoogleAIModel, "https://generativelanguage.googleapis.com/v1beta/openai"},
		{map[string]string{"LLM_PROVIDER": "GOOGLEAI", "GOOGLEAI_MODEL": "gemini-x", "GOOGLEAI_BASE_URL": "http://127.0.0.1:9/"}, ProviderGoogleAI, "gemini-x", "http://127.0.0.1:9/v1beta/openai"},
		{map[string]string{"LLM_PROVIDER": "googleai", "GOOGLEAI_BASE_URL": "https://proxy.example/v1beta"}, ProviderGoogleAI, DefaultGoogleAIModel, "https://proxy.example/v1beta/openai"},
		{map[string]string{"LLM_PROVIDER": "google", "GOOGLEAI_BASE_URL": "https://proxy.example/g/openai/"}, ProviderGoogleAI, DefaultGoogleAIModel, "https://proxy.example/g/openai"},
		{map[string]string{"LLM_PROVIDER": "moonshot"}, "moonshot", "kimi-k2-0905-preview", "https://api.moonshot.ai/v1"},
	} {
		tt.env["CHATCLI_HOME"] = "/h"
		c, err := FromEnv(env(tt.env))
		if err != nil || c.ProviderErr != nil || c.Provider != tt.provider || c.Model != tt.model {
			t.Errorf("%v: provider %q model %q, %v %v", tt.env, c.Provider, c.Model, err, c.ProviderErr)
			continue
		}
		if tt.base != "" && c.Endpoints[tt.provider].URL != tt.base {
			t.Errorf("%v: base %q", tt.env, c.Endpoints[tt.provider].URL)
		}
	}
	c, _ := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "LLM_PROVIDER": "GITHUB_MODELS", "GITHUB_TOKEN": "t"}))
	if c.Endpoints["github_models"].APIKey != "t" {
		t.Errorf("GITHUB_TOKEN not used: %+v", c.Endpoints["github_models"])
	}
	c, _ = FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "LLM_PROVIDER": "GEMINI", "GEMINI_API_KEY": "g", "GOOGLEAI_API_KEY": "k"}))
	if c.Endpoints[ProviderGoogleAI].APIKey != "k" {
		t.Errorf("GOOGLEAI_API_KEY does not come first: %+v", c.Endpoints[ProviderGoogleAI])
	}
}

// TestUnservableProviderStopsOnlyWhatNeedsIt: COPILOT, STACKSPOT and
// DEVIN are read without failing the configuration (session and
// storage commands go on); ProviderErr names what chatcli can serve or
// what to use instead.
func TestUnservableProviderStopsOnlyWhatNeedsIt(t *testing.T) {
	for v, want := range map[string]string{"COPILOT": "OLLAMA, OPENAI", "STACKSPOT": "GOOGLEAI", "DEVIN": "BEDROCK"} {
		c, err := FromEnv(env(map[string]string{"CHATCLI_HOME": "/h", "LLM_PROVIDER": v}))
		if err != nil {
			t.Errorf("%s: the configuration failed: %v", v, err)
		}
		if !errors.Is(c.ProviderErr, ErrUnsupportedProvider) || !errors.Is(c.ProviderErr, ErrConfig) || !strings.Contains(c.ProviderErr.Error(), want) {
			t.Errorf("%s: %v", v, c.ProviderErr)
		}
	}
	var c Config
	if err := c.Override("copilot", ""); !errors.Is(err, ErrUnsupportedProvider) {
		t.Errorf("--provider copilot: %v", err)
	}
}
