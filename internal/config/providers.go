package config

import (
	"fmt"
	"sort"
	"strings"
)

// ErrUnsupportedProvider is wrapped by the error for an LLM_PROVIDER
// chatcli knows of but cannot serve (COPILOT, STACKSPOT, …) or does not
// know at all. It matches ErrConfig too.
var ErrUnsupportedProvider = fmt.Errorf("%w: provider not supported", ErrConfig)

// Preset is an OpenAI-compatible service known by the name ChatCLI users
// give it in LLM_PROVIDER. Its requests go through the openai provider to
// BaseURL (or the BaseURLVar variable), with the key of the first KeyVars
// variable that is set.
type Preset struct {
	// Name is the lower-case LLM_PROVIDER value, e.g. "xai".
	Name string
	// BaseURL is the service's OpenAI-compatible API root.
	BaseURL string
	// KeyVars are the API key variables, the first set wins; empty for a
	// local server that needs no key.
	KeyVars []string
	// ModelVar and BaseURLVar name the model and base URL variables.
	ModelVar, BaseURLVar string
	// DefaultModel is the model when ModelVar is unset.
	DefaultModel string
}

// Presets are the OpenAI-compatible services chatcli knows, with the
// API roots their providers document.
var Presets = []Preset{
	// Ollama's OpenAI-compatible API; the default model is ChatCLI's
	// (config/defaults.go).
	{Name: "ollama", BaseURL: "http://localhost:11434/v1", ModelVar: "OLLAMA_MODEL", BaseURLVar: "OLLAMA_BASE_URL", DefaultModel: "gpt-oss:20b"},
	{Name: "xai", BaseURL: "https://api.x.ai/v1", KeyVars: []string{"XAI_API_KEY"}, ModelVar: "XAI_MODEL", BaseURLVar: "XAI_BASE_URL", DefaultModel: "grok-3-mini"},
	{Name: "openrouter", BaseURL: "https://openrouter.ai/api/v1", KeyVars: []string{"OPENROUTER_API_KEY"}, ModelVar: "OPENROUTER_MODEL",
		BaseURLVar: "OPENROUTER_BASE_URL", DefaultModel: "openai/gpt-4o-mini"},
	{Name: "zai", BaseURL: "https://api.z.ai/api/paas/v4", KeyVars: []string{"ZAI_API_KEY"}, ModelVar: "ZAI_MODEL", BaseURLVar: "ZAI_BASE_URL", DefaultModel: "glm-4.6"},
	{Name: "moonshot", BaseURL: "https://api.moonshot.ai/v1", KeyVars: []string{"MOONSHOT_API_KEY"}, ModelVar: "MOONSHOT_MODEL",
		BaseURLVar: "MOONSHOT_BASE_URL", DefaultModel: "kimi-k2-0905-preview"},
	{Name: "minimax", BaseURL: "https://api.minimax.io/v1", KeyVars: []string{"MINIMAX_API_KEY"}, ModelVar: "MINIMAX_MODEL",
		BaseURLVar: "MINIMAX_BASE_URL", DefaultModel: "MiniMax-M2"},
	// Gemini's OpenAI-compatible endpoint (ai.google.dev/gemini-api/docs/openai):
	// chat completions with streaming, tools and images, the API key as a
	// Bearer token.
	{Name: ProviderGoogleAI, BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", KeyVars: []string{"GOOGLEAI_API_KEY", "GEMINI_API_KEY"},
		ModelVar: "GOOGLEAI_MODEL", BaseURLVar: "GOOGLEAI_BASE_URL", DefaultModel: DefaultGoogleAIModel},
	{Name: "github_models", BaseURL: "https://models.github.ai/inference", KeyVars: []string{"GITHUB_MODELS_TOKEN", "GITHUB_TOKEN"},
		ModelVar: "GITHUB_MODELS_MODEL", BaseURLVar: "GITHUB_MODELS_BASE_URL", DefaultModel: "openai/gpt-4o-mini"},
}

// Endpoint is a preset as the environment configures it.
type Endpoint struct {
	Preset
	// APIKey is the key read from KeyVars; "" when none is set.
	APIKey string
	// URL is BaseURLVar's value, or the preset's BaseURL.
	URL string
	// Model is ModelVar's value, or the preset's DefaultModel.
	Model string
}

// aliases maps other names people give a provider to chatcli's.
var aliases = map[string]string{
	"claudeai": ProviderAnthropic, "claude": ProviderAnthropic, "github-models": "github_models", "githubmodels": "github_models",
	"gemini": ProviderGoogleAI, "google": ProviderGoogleAI, "grok": "xai", "kimi": "moonshot",
}

// canonicalProvider is the provider name for an LLM_PROVIDER or --provider
// value, in any case.
func canonicalProvider(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		return a
	}
	return n
}

// Supported lists the provider names chatcli serves, sorted.
func Supported() []string {
	names := []string{ProviderOpenAI, ProviderAnthropic, ProviderBedrock, ProviderOffline}
	for _, p := range Presets {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}

// unsupported is the error for a provider name chatcli cannot serve.
func unsupported(name string) error {
	return fmt.Errorf("%w: %q; chatcli serves %s (LLM_PROVIDER, any case)", ErrUnsupportedProvider, name,
		strings.ToUpper(strings.Join(Supported(), ", ")))
}

// readEndpoints fills c.Endpoints from the environment.
func (c *Config) readEndpoints(getenv func(string) string) {
	c.Endpoints = map[string]Endpoint{}
	for _, p := range Presets {
		e := Endpoint{Preset: p, URL: firstNonEmpty(getenv(p.BaseURLVar), p.BaseURL), Model: firstNonEmpty(getenv(p.ModelVar), p.DefaultModel)}
		for _, k := range p.KeyVars {
			if e.APIKey = getenv(k); e.APIKey != "" {
				break
			}
		}
		if p.Name == "ollama" && !strings.HasSuffix(strings.TrimRight(e.URL, "/"), "/v1") {
			// OLLAMA_BASE_URL is Ollama's own root (http://host:11434);
			// its OpenAI-compatible API is under /v1.
			e.URL = strings.TrimRight(e.URL, "/") + "/v1"
		}
		if p.Name == ProviderGoogleAI {
			e.URL = geminiOpenAIURL(e.URL)
		}
		c.Endpoints[p.Name] = e
	}
}

// geminiOpenAIURL is the OpenAI-compatible root for a GOOGLEAI_BASE_URL
// given as the API's own root ("https://host" or "https://host/v1beta", as
// Gemini clients take it): "/v1beta/openai" or "/openai" is added; a URL
// already ending in "/openai" is kept.
func geminiOpenAIURL(u string) string {
	u = strings.TrimRight(u, "/")
	switch {
	case strings.HasSuffix(u, "/openai"):
		return u
	case strings.HasSuffix(u, "/v1beta"):
		return u + "/openai"
	}
	return u + "/v1beta/openai"
}
