package config

import "testing"

// settingOf is the setting named name in list.
func settingOf(list []Setting, name string) Setting {
	for _, s := range list {
		if s.Name == name {
			return s
		}
	}
	return Setting{}
}

// TestChooseShowsWhatTheNextRequestUses: a chosen model or provider is
// shown with what chose it over the setting's source; a copy made before
// is untouched, and a value chosen back to the settings' is theirs again.
func TestChooseShowsWhatTheNextRequestUses(t *testing.T) {
	c, err := Load(env(map[string]string{"CHATCLI_HOME": "/h", "OPENAI_API_KEY": "k", "OPENAI_MODEL": "m", "OLLAMA_MODEL": "llama"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	before := c
	if err := c.Choose(ProviderOpenAI, "other", "/model"); err != nil {
		t.Fatal(err)
	}
	for _, list := range [][]Setting{c.AllSettings(), c.SessionSettings()} {
		if s := settingOf(list, "OPENAI_MODEL"); s.Value != "other" || s.By != "/model" || s.Source != "environment" {
			t.Errorf("after /model: %+v", s)
		}
		if s := settingOf(list, "LLM_PROVIDER"); s.Value != ProviderOpenAI || s.By != "" {
			t.Errorf("the provider was not chosen: %+v", s)
		}
	}
	if s := settingOf(before.AllSettings(), "OPENAI_MODEL"); s.Value != "m" || s.By != "" {
		t.Errorf("the copy from before: %+v", s)
	}
	if err := c.Choose("OLLAMA", "", "/switch"); err != nil {
		t.Fatal(err)
	}
	all := c.AllSettings()
	if s := settingOf(all, "LLM_PROVIDER"); s.Value != "ollama" || s.By != "/switch" || s.Source != "detected from the API settings" {
		t.Errorf("after /switch: %+v", s)
	}
	if s := settingOf(all, "OLLAMA_MODEL"); s.Value != "llama" || s.By != "" {
		t.Errorf("ollama's own model: %+v", s)
	}
	if s := settingOf(all, "OPENAI_MODEL"); s.Value != "m" || s.By != "" {
		t.Errorf("a model no longer in use: %+v", s)
	}
	if err := c.Choose(ProviderOpenAI, "m", "/switch"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"LLM_PROVIDER", "OPENAI_MODEL"} {
		if s := settingOf(c.SessionSettings(), name); s.By != "" {
			t.Errorf("back to the settings: %+v", s)
		}
	}
	if err := c.Choose("nope", "", "/switch"); err == nil || c.Provider != ProviderOpenAI {
		t.Errorf("an unknown provider: %v, %s", err, c.Provider)
	}
}
