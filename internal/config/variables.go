package config

import (
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Variable is one setting chatcli reads: its environment variable, the
// key naming it in config.toml (see Key), what it means and its default as
// `chatcli config` shows them.
type Variable struct {
	Name    string
	Default string
	// Said is Default as a catalog phrase, when Default is prose
	// ("by model") rather than a value; its English text is Default.
	Said    i18n.Text
	Summary string
	// Secret values (API and encryption keys) are shown as "set", never
	// printed.
	Secret bool
	// EnvOnly variables are read from the environment alone: the config
	// file has no key for them (CHATCLI_DOTENV names a file read before it).
	EnvOnly bool
}

// Variables lists every setting chatcli reads, in the order `chatcli
// config` and the template of `chatcli config init` show them: the fixed
// ones, then each preset's (presetVariables).
var Variables = append(fixedVariables, presetVariables()...)

var fixedVariables = []Variable{
	{Name: "LLM_PROVIDER", Default: "detected: openai with an OpenAI key or base URL, anthropic with an Anthropic key, else offline", Summary: "openai, anthropic, bedrock, googleai, ollama, xai, openrouter, zai, moonshot, minimax, github_models or offline"},
	{Name: "OPENAI_API_KEY", Summary: "OpenAI API key", Secret: true},
	{Name: "OPENAI_MODEL", Default: DefaultOpenAIModel, Summary: "model of the openai provider"},
	{Name: "OPENAI_BASE_URL", Default: "https://api.openai.com/v1", Summary: "OpenAI-compatible server (Ollama: http://127.0.0.1:11434/v1)"},
	{Name: "OPENAI_API_URL", Summary: "alias of OPENAI_BASE_URL: a full …/v1/chat/completions URL"},
	{Name: "ANTHROPIC_API_KEY", Summary: "Anthropic API key", Secret: true},
	{Name: "ANTHROPIC_MODEL", Default: DefaultAnthropicModel, Summary: "model of the anthropic provider"},
	{Name: "ANTHROPIC_BASE_URL", Default: "https://api.anthropic.com", Summary: "Anthropic API server"},
	{Name: "CLAUDEAI_API_KEY", Summary: "ChatCLI's name for ANTHROPIC_API_KEY (LLM_PROVIDER=CLAUDEAI)", Secret: true},
	{Name: "CLAUDEAI_MODEL", Summary: "ChatCLI's name for ANTHROPIC_MODEL"},
	{Name: "BEDROCK_MODEL", Default: DefaultBedrockModel, Summary: "model or inference profile id of the bedrock provider"},
	{Name: "BEDROCK_REGION", Default: "AWS_REGION, else AWS_DEFAULT_REGION, else " + DefaultBedrockRegion, Said: i18n.Textf("AWS_REGION, else AWS_DEFAULT_REGION, else %s", DefaultBedrockRegion), Summary: "AWS Region of the bedrock provider"},
	{Name: "AWS_REGION", Summary: "AWS Region (when BEDROCK_REGION is unset)"},
	{Name: "AWS_DEFAULT_REGION", Summary: "AWS Region (when AWS_REGION is unset)"},
	{Name: "AWS_ACCESS_KEY_ID", Summary: "AWS access key the bedrock provider signs with", Secret: true},
	{Name: "AWS_SECRET_ACCESS_KEY", Summary: "its secret key", Secret: true},
	{Name: "AWS_SESSION_TOKEN", Summary: "session token of temporary AWS credentials", Secret: true},
	{Name: "AWS_BEARER_TOKEN_BEDROCK", Summary: "Amazon Bedrock API key, instead of the access keys", Secret: true},
	{Name: "AWS_PROFILE", Summary: "not read: export the profile's credentials (aws configure export-credentials --format env)"},
	{Name: "BEDROCK_BASE_URL", Default: "https://bedrock-runtime.<region>.amazonaws.com",
		Summary: "Bedrock runtime endpoint (also AWS_ENDPOINT_URL_BEDROCK_RUNTIME or AWS_ENDPOINT_URL)"},
	{Name: EnvDotenv, Default: "./.env", Summary: "ChatCLI's dotenv file, read beneath the environment", EnvOnly: true},
	{Name: "CHATCLI_HOME", Default: "~/.chatcli", Summary: "the store of sessions, journals and history"},
	{Name: "CHATCLI_SESSION_AUTOSAVE", Default: "on", Summary: "save an unbound conversation on exit as autosave-…"},
	{Name: "CHATCLI_MCP_SESSION_AUTOSAVE", Default: "as CHATCLI_SESSION_AUTOSAVE", Said: i18n.Textf("as CHATCLI_SESSION_AUTOSAVE"), Summary: "mirror MCP and ACP conversations to mcp-<id>"},
	{Name: "CHATCLI_SESSION_TRANSCRIPT", Default: "on", Summary: "keep a journal under every conversation"},
	{Name: "CHATCLI_SESSION_WRITETHROUGH", Default: "on", Summary: "a bound session takes each turn and adopts other windows' (off: written on save, detach and exit only)"},
	{Name: "CHATCLI_SESSION_TTL", Default: "90d", Summary: "age after which machine-made sessions are removed (0: never)"},
	{Name: "CHATCLI_SESSION_AUTOSAVE_KEEP", Default: "600", Summary: "machine-made sessions kept per prefix"},
	{Name: "CHATCLI_REQUEST_TIMEOUT", Default: DefaultRequestTimeout.String(), Summary: "limit for one LLM request"},
	{Name: "CHATCLI_CONTEXT_WINDOW", Default: "by model", Said: i18n.Textf("by model"), Summary: "context size in tokens, or model=tokens,…"},
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
	{Name: "CHATCLI_HUB", Summary: "the Conversation Hub thread the REPL and every gateway chat join (/hub join NAME)"},
	// chatcli gateway (internal/gateway reads these; its --help says more).
	{Name: "CHATCLI_TELEGRAM_BOT_TOKEN", Summary: "gateway: the Telegram bot token from @BotFather (turns Telegram on)", Secret: true},
	{Name: "CHATCLI_TELEGRAM_ALLOWED_USERS", Summary: "gateway: Telegram user or chat ids (integers) that may talk; none: nobody"},
	{Name: "CHATCLI_TELEGRAM_HOME_CHANNEL", Summary: "gateway: the Telegram chat id chatcli gateway send telegram delivers to"},
	{Name: "CHATCLI_TELEGRAM_API_URL", Default: "https://api.telegram.org", Summary: "gateway: the Telegram Bot API root"},
	{Name: "CHATCLI_SLACK_BOT_TOKEN", Summary: "gateway: the Slack bot token, xoxb-… (turns Slack on)", Secret: true},
	{Name: "CHATCLI_SLACK_SIGNING_SECRET", Summary: "gateway: verifies Slack's Events API requests", Secret: true},
	{Name: "CHATCLI_SLACK_ADDR", Default: "127.0.0.1:3000", Summary: "gateway: where the Slack Events API endpoint listens"},
	{Name: "CHATCLI_SLACK_PATH", Default: "/slack/events", Summary: "gateway: the Slack endpoint's path"},
	{Name: "CHATCLI_SLACK_ALLOWED_USERS", Summary: "gateway: Slack user or channel ids (U…, D…, C…) that may talk; none: nobody"},
	{Name: "CHATCLI_SLACK_HOME_CHANNEL", Summary: "gateway: the Slack channel id chatcli gateway send slack delivers to"},
	{Name: "CHATCLI_SLACK_API_URL", Default: "https://slack.com/api/", Summary: "gateway: the Slack Web API root"},
	{Name: "CHATCLI_WHATSAPP_ACCESS_TOKEN", Summary: "gateway: the WhatsApp Cloud API access token (turns WhatsApp on)", Secret: true},
	{Name: "CHATCLI_WHATSAPP_PHONE_ID", Summary: "gateway: the id of the WhatsApp number replies come from"},
	{Name: "CHATCLI_WHATSAPP_VERIFY_TOKEN", Summary: "gateway: answers the WhatsApp webhook's subscription check", Secret: true},
	{Name: "CHATCLI_WHATSAPP_APP_SECRET", Summary: "gateway: checks the WhatsApp webhook's X-Hub-Signature-256", Secret: true},
	{Name: "CHATCLI_WHATSAPP_ADDR", Default: "127.0.0.1:3001", Summary: "gateway: where the WhatsApp webhook listens"},
	{Name: "CHATCLI_WHATSAPP_PATH", Default: "/whatsapp/webhook", Summary: "gateway: the WhatsApp webhook's path"},
	{Name: "CHATCLI_WHATSAPP_ALLOWED_USERS", Summary: "gateway: WhatsApp numbers (5511999990000) that may talk; none: nobody"},
	{Name: "CHATCLI_WHATSAPP_HOME_CHANNEL", Summary: "gateway: the WhatsApp number chatcli gateway send whatsapp delivers to"},
	{Name: "CHATCLI_WHATSAPP_GRAPH_URL", Default: "https://graph.facebook.com/v21.0", Summary: "gateway: the Graph API root with its version"},
}

// presetVariables are the variables of the OpenAI-compatible presets:
// each one's key, model and base URL variables.
func presetVariables() []Variable {
	var out []Variable
	for _, p := range Presets {
		name := strings.ToUpper(p.Name)
		for i, k := range p.KeyVars {
			summary := name + " API key"
			if i > 0 {
				summary = "alias of " + p.KeyVars[0]
			}
			out = append(out, Variable{Name: k, Summary: summary, Secret: true})
		}
		out = append(out, Variable{Name: p.ModelVar, Default: p.DefaultModel, Summary: "model of the " + p.Name + " provider"},
			Variable{Name: p.BaseURLVar, Default: p.BaseURL, Summary: name + " API server"})
	}
	return out
}

// Key is the config.toml key of an environment variable: its name in
// lower case with CHATCLI_ dropped (CHATCLI_SESSION_TTL: session_ttl,
// OPENAI_MODEL: openai_model).
func Key(name string) string { return strings.ToLower(strings.TrimPrefix(name, "CHATCLI_")) }

// variableOf returns the variable a config.toml key names.
func variableOf(key string) (Variable, bool) {
	for _, v := range Variables {
		if Key(v.Name) == key && !v.EnvOnly {
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
		if v.EnvOnly {
			continue
		}
		b.WriteString("\n# " + v.Summary)
		if v.Default != "" {
			b.WriteString(" (default: " + v.Default + ")")
		}
		b.WriteString("\n# " + Key(v.Name) + " = \"\"\n")
	}
	return b.String()
}
