package config

// Load reads the configuration from getenv with the config file f beneath
// it (see File.Getenv; f may be nil), remembering which values came from
// which, for the sources `chatcli config` shows.
func Load(getenv func(string) string, f *File) (Config, error) {
	c, err := FromEnv(f.Getenv(getenv))
	c.file, c.env = f, getenv
	return c, err
}

// sourceOf is where the value of variable name came from: "environment",
// "path:line" of the config file, or "" (the default).
func (c Config) sourceOf(name string) string {
	if c.env != nil {
		return c.file.source(c.env, name)
	}
	if c.fromEnv[name] {
		return "environment"
	}
	return ""
}

// AllSettings lists every variable of Variables with its value (secrets
// as "set") and source: "environment", "path:line" or "default" (the
// value then is the default's description). The provider and model a flag
// or command chose (Choose) are shown with their By.
func (c Config) AllSettings() []Setting {
	get := c.env
	if get == nil {
		get = func(string) string { return "" }
	}
	get = c.file.Getenv(get)
	out := make([]Setting, 0, len(Variables))
	for _, v := range Variables {
		s := Setting{Name: v.Name, Value: get(v.Name), Source: c.sourceOf(v.Name)}
		switch {
		case s.Source == "" && v.Name == "LLM_PROVIDER":
			s.Value, s.Source = c.providerOfSettings(), "detected from the API settings"
		case s.Source == "":
			s.Value, s.Said, s.Source = v.Default, v.Said, "default"
			if v.Secret || v.Default == "" {
				s.Value = "not set"
			}
		case v.Secret:
			s.Value = "set"
		}
		c.markChosen(&s)
		out = append(out, s)
	}
	return out
}
