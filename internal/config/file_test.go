package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigFileBeneathTheEnvironment(t *testing.T) {
	path := writeFile(t, "# mine\nsession_ttl = \"30d\"\nopenai_model = \"gpt-4o\"\n\nhistory_max_size = \"50KB\"\nsession_autosave = false\n")
	f, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CHATCLI_HOME": t.TempDir(), "OPENAI_MODEL": "from-env", "OPENAI_API_KEY": "k"}
	c, err := Load(func(k string) string { return env[k] }, f)
	if err != nil {
		t.Fatal(err)
	}
	if c.SessionTTL.Hours() != 30*24 || c.OpenAIModel != "from-env" || c.HistoryMaxBytes != 50<<10 || c.Autosave {
		t.Fatalf("ttl %v model %q history %d bytes autosave %v", c.SessionTTL, c.OpenAIModel, c.HistoryMaxBytes, c.Autosave)
	}
	src := map[string]Setting{}
	for _, s := range c.AllSettings() {
		src[s.Name] = s
	}
	for name, want := range map[string]Setting{
		"CHATCLI_SESSION_TTL":     {Value: "30d", Source: path + ":2"},
		"OPENAI_MODEL":            {Value: "from-env", Source: "environment"},
		"HISTORY_MAX_SIZE":        {Value: "50KB", Source: path + ":5"},
		"OPENAI_API_KEY":          {Value: "set", Source: "environment"},
		"ANTHROPIC_API_KEY":       {Value: "not set", Source: "default"},
		"CHATCLI_AGENT_MAX_STEPS": {Value: "25", Source: "default"},
	} {
		if got := src[name]; got.Value != want.Value || got.Source != want.Source {
			t.Errorf("%s: %q from %q, want %q from %q", name, got.Value, got.Source, want.Value, want.Source)
		}
	}
	for _, s := range c.SessionSettings() {
		if s.Name == "CHATCLI_SESSION_TTL" && s.Source != path+":2" {
			t.Errorf("session settings: CHATCLI_SESSION_TTL from %q", s.Source)
		}
	}
}

func TestABadConfigFileNamesTheLine(t *testing.T) {
	for name, tc := range map[string]struct{ body, says string }{
		"syntax":        {"session_ttl = \"30d\"\nopenai_model = gpt-4o\n", ":2: "},
		"unknown key":   {"session_ttl = \"30d\"\n\nsesion_autosave = false\n", `:3: "sesion_autosave" names no setting`},
		"table value":   {"[openai_model]\nx = 1\n", ":1: openai_model: want a string, a number or a boolean"},
		"bad value":     {"request_timeout = \"soon\"\n", "CHATCLI_REQUEST_TIMEOUT=\"soon\""},
		"duplicate key": {"llm_provider = \"openai\"\nllm_provider = \"offline\"\n", ":2: "},
	} {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, tc.body)
			f, err := LoadFile(path)
			if err == nil {
				_, err = Load(func(k string) string { return map[string]string{"CHATCLI_HOME": t.TempDir()}[k] }, f)
			}
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %v, want one saying %q", err, tc.says)
			}
			if name != "bad value" && !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v does not name %s", err, path)
			}
		})
	}
}

func TestMissingConfigFileIsEmptyAndFilePathFollowsXDG(t *testing.T) {
	f, err := LoadFile(filepath.Join(t.TempDir(), "none.toml"))
	if err != nil || len(f.values) != 0 {
		t.Fatalf("%v %v", f, err)
	}
	env := map[string]string{"HOME": "/home/u"}
	get := func(k string) string { return env[k] }
	if p := FilePath(get); p != "/home/u/.config/chatcli/config.toml" {
		t.Fatal(p)
	}
	env["XDG_CONFIG_HOME"] = "/x"
	if p := FilePath(get); p != "/x/chatcli/config.toml" {
		t.Fatal(p)
	}
}

func TestTemplateIsValidTOMLNamingEverySetting(t *testing.T) {
	tpl := Template()
	var raw map[string]any
	if _, err := toml.Decode(tpl, &raw); err != nil || len(raw) != 0 {
		t.Fatalf("the template should parse and set nothing: %v %v", raw, err)
	}
	uncommented := strings.ReplaceAll(tpl, "\n# ", "\n")
	for _, v := range Variables {
		if !v.EnvOnly && !strings.Contains(uncommented, "\n"+Key(v.Name)+" = ") {
			t.Errorf("the template lacks %s", Key(v.Name))
		}
	}
}
