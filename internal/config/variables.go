package config

import "strings"

// Variable is one setting chatcli reads: its environment variable, the
// key naming it in config.toml (see Key), what it means and its default as
// `chatcli config` shows them.
type Variable struct {
	Name    string
	Default string
	Summary string
	// Secret values (API and encryption keys) are shown as "set", never
	// printed.
	Secret bool
}

// Variables lists every setting chatcli reads, in the order `chatcli
// config` and the template of `chatcli config init` show them.
var Variables = []Variable{
	{Name: "LLM_PROVIDER", Default: "detected: openai with an OpenAI key or base URL, anthropic with an Anthropic key, else offline", Summary: "openai, anthropic, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models or offline"},
	{Name: "OPENAI_API_KEY", Summary: "OpenAI API key", Secret: true},
	{Name: "OPENAI_MODEL", Default: DefaultOpenAIModel, Summary: "model of the openai provider"},
	{Name: "OPENAI_BASE_URL", Default: "https://api.openai.com/v1", Summary: "OpenAI-compatible server (Ollama: http://127.0.0.1:11434/v1)"},
	{Name: "OPENAI_API_URL", Summary: "alias of OPENAI_BASE_URL: a full …/v1/chat/completions URL"},
	{Name: "ANTHROPIC_API_KEY", Summary: "Anthropic API key", Secret: true},
	{Name: "ANTHROPIC_MODEL", Default: DefaultAnthropicModel, Summary: "model of the anthropic provider"},
	{Name: "ANTHROPIC_BASE_URL", Default: "https://api.anthropic.com", Summary: "Anthropic API server"},
	{Name: "CHATCLI_HOME", Default: "~/.chatcli", Summary: "the store of sessions, journals and history"},
	{Name: "CHATCLI_SESSION_AUTOSAVE", Default: "on", Summary: "save an unbound conversation on exit as autosave-…"},
	{Name: "CHATCLI_MCP_SESSION_AUTOSAVE", Default: "as CHATCLI_SESSION_AUTOSAVE", Summary: "mirror MCP and ACP conversations to mcp-<id>"},
	{Name: "CHATCLI_SESSION_TRANSCRIPT", Default: "on", Summary: "keep a journal under every conversation"},
	{Name: "CHATCLI_SESSION_WRITETHROUGH", Default: "on", Summary: "a bound session takes each turn and adopts other windows' (off: written on save, detach and exit only)"},
	{Name: "CHATCLI_SESSION_TTL", Default: "90d", Summary: "age after which machine-made sessions are removed (0: never)"},
	{Name: "CHATCLI_SESSION_AUTOSAVE_KEEP", Default: "600", Summary: "machine-made sessions kept per prefix"},
	{Name: "CHATCLI_REQUEST_TIMEOUT", Default: DefaultRequestTimeout.String(), Summary: "limit for one LLM request"},
	{Name: "CHATCLI_CONTEXT_WINDOW", Default: "by model", Summary: "context size in tokens, or model=tokens,…"},
	{Name: "HISTORY_FILE", Default: "$CHATCLI_HOME/history", Summary: "the REPL's input history"},
	{Name: "HISTORY_MAX_SIZE", Default: "100MB", Summary: "size cap of the input history, in bytes (KB, MB, GB as ChatCLI reads it)"},
	{Name: EnvEncryptionKey, Summary: "base64 of 32 bytes: key or passphrase: encrypt sessions, journals, checkpoints, history, contexts, memory", Secret: true},
	{Name: EnvEncryptionKeyOld, Summary: "the previous key, for chatcli storage rekey", Secret: true},
	{Name: EnvHistoryPlaintext, Default: "off", Summary: "keep the input history in plaintext when the key is set"},
	{Name: "CHATCLI_AGENT_AUTO_EXEC", Default: "off", Summary: "agent and coder tools write and run without asking"},
	{Name: "CHATCLI_AGENT_MAX_STEPS", Default: "25", Summary: "requests one agent task may send"},
	{Name: "CHATCLI_LANG", Default: "from LC_ALL, LC_MESSAGES or LANG, else en", Summary: "language of the messages: pt-BR or en"},
	{Name: "CHATCLI_RENDER", Default: "on", Summary: "render replies as Markdown on a terminal"},
	{Name: "CHATCLI_DEBUG_LOCKSTATS", Default: "off", Summary: "any value: lock waits on stderr at exit"},
}

// Key is the config.toml key of an environment variable: its name in
// lower case with CHATCLI_ dropped (CHATCLI_SESSION_TTL: session_ttl,
// OPENAI_MODEL: openai_model).
func Key(name string) string { return strings.ToLower(strings.TrimPrefix(name, "CHATCLI_")) }

// variableOf returns the variable a config.toml key names.
func variableOf(key string) (Variable, bool) {
	for _, v := range Variables {
		if Key(v.Name) == key {
			return v, true
		}
	}
	return Variable{}, false
}

// Template is the commented config.toml `chatcli config init` writes:
// every setting, commented out, with what it means and its default.
func Template() string {
	var b strings.Builder
	b.WriteString("# chatcli settings. Each key is an environment variable in lower case with\n" +
		"# CHATCLI_ dropped (CHATCLI_SESSION_TTL: session_ttl); a variable set in the\n" +
		"# environment overrides the key. Values are strings, numbers or booleans.\n")
	for _, v := range Variables {
		b.WriteString("\n# " + v.Summary)
		if v.Default != "" {
			b.WriteString(" (default: " + v.Default + ")")
		}
		b.WriteString("\n# " + Key(v.Name) + " = \"\"\n")
	}
	return b.String()
}
