package config

import (
	"maps"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Choose is Override on behalf of by, the flag or command that chose the
// provider or model ("--provider", "--model", "/model", "/switch"): the
// settings stay known beneath it, and AllSettings and SessionSettings show
// the values the next request uses, with by as their source over the
// setting's own. A value chosen back to the settings' shows as theirs.
func (c *Config) Choose(provider, model, by string) error {
	prevProvider, prevModel := c.Provider, c.Model
	if err := c.Override(provider, model); err != nil {
		return err
	}
	chosen := maps.Clone(c.chosen) // a copy of the Config keeps its own
	if chosen == nil {
		chosen = map[string]string{}
	}
	if c.Provider != prevProvider {
		chosen["LLM_PROVIDER"] = by
	}
	if v := c.modelVar(); v != "" && (c.Provider != prevProvider || c.Model != prevModel) {
		chosen[v] = by
	}
	c.chosen = chosen
	return nil
}

// markChosen gives s the value and the By of a flag or command that chose
// it over the settings (Choose), when there is one.
func (c Config) markChosen(s *Setting) {
	by := c.chosen[s.Name]
	if by == "" {
		return
	}
	model, _ := c.settingsModel(c.Provider)
	switch {
	case s.Name == "LLM_PROVIDER" && c.Provider != c.providerOfSettings():
		s.Value = c.Provider
	case s.Name == c.modelVar() && c.Model != model:
		s.Value = c.Model
	default:
		return
	}
	s.Said, s.By = i18n.Text{}, by
}

// settingsModel is the model the settings give provider: its model
// variable's value or its default; false for a provider chatcli cannot
// serve.
func (c Config) settingsModel(provider string) (string, bool) {
	switch provider {
	case ProviderOpenAI:
		return firstNonEmpty(c.OpenAIModel, DefaultOpenAIModel), true
	case ProviderAnthropic:
		return firstNonEmpty(c.AnthropicModel, DefaultAnthropicModel), true
	case ProviderOffline:
		return "offline", true
	case ProviderBedrock:
		return c.Bedrock.Model, true
	}
	e, ok := c.Endpoints[provider]
	return e.Model, ok
}

// modelVar is the variable naming the model of the provider in use
// (OPENAI_MODEL, OLLAMA_MODEL, …); "" for the offline provider.
func (c Config) modelVar() string {
	if e, ok := c.Endpoints[c.Provider]; ok {
		return e.ModelVar
	}
	return map[string]string{ProviderOpenAI: "OPENAI_MODEL", ProviderAnthropic: "ANTHROPIC_MODEL", ProviderBedrock: "BEDROCK_MODEL"}[c.Provider]
}

// providerOfSettings is the provider the settings name (a Config not read
// by FromEnv: its Provider).
func (c Config) providerOfSettings() string {
	if c.settingsProvider == "" {
		return c.Provider
	}
	return c.settingsProvider
}
