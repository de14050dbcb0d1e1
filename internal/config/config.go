// Package config reads chatcli's settings from the environment and derives
// the store's paths. It is the only package that looks at environment
// variables; everything else receives a Config.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
)

// Provider names accepted by LLM_PROVIDER and --provider.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderOffline   = "offline"
	ProviderGoogleAI  = "googleai"
)

// Default models when none is configured. DefaultOllamaModel and
// DefaultOllamaURL are ChatCLI's (config/defaults.go) for LLM_PROVIDER=OLLAMA.
const (
	DefaultOpenAIModel    = "gpt-4o-mini"
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultGoogleAIModel  = "gemini-2.5-flash"
)

// DefaultHistoryMax is the number of input lines kept (besides the byte
// cap HISTORY_MAX_SIZE sets).
const DefaultHistoryMax = 1000

// Retention defaults: machine-made sessions (autosave-, mcp-) expire after
// DefaultSessionTTL without an update, and at most DefaultAutosaveKeep of
// each prefix are kept.
const (
	DefaultSessionTTL   = 90 * 24 * time.Hour
	DefaultAutosaveKeep = 600
)

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("config: invalid setting")

// Config is every setting chatcli reads at start-up.
type Config struct {
	// Home is the store root: CHATCLI_HOME, default ~/.chatcli.
	Home string
	// Provider is LLM_PROVIDER, or the provider implied by which API keys
	// and URLs are set, or "offline" when nothing is configured.
	Provider string
	// Model is the model of the chosen provider (OPENAI_MODEL or
	// ANTHROPIC_MODEL, or the provider's default).
	Model string

	OpenAIKey, OpenAIBaseURL, OpenAIModel          string
	AnthropicKey, AnthropicBaseURL, AnthropicModel string
	// Bedrock is the configuration of LLM_PROVIDER=BEDROCK (bedrock.go).
	Bedrock Bedrock
	// Endpoints are the OpenAI-compatible presets (Presets) as the
	// environment configures them, by name.
	Endpoints map[string]Endpoint
	// ProviderErr is why LLM_PROVIDER cannot be used (an unknown or
	// unsupported provider, wrapping ErrUnsupportedProvider); nil when it
	// can. Only the commands that need a provider fail with it: listing,
	// showing, exporting and searching sessions work whatever it says.
	ProviderErr error

	// HistoryFile is the REPL's input history (HISTORY_FILE, default
	// <Home>/history); HistoryMax caps its entries (DefaultHistoryMax) and
	// HistoryMaxBytes its size in bytes (HISTORY_MAX_SIZE, read as ChatCLI
	// reads it: ParseByteSize; default DefaultHistoryMaxBytes).
	// HistoryErr is set when HISTORY_MAX_SIZE cannot be read: only what
	// keeps the history (the REPL's line editor) stops on it.
	HistoryFile     string
	HistoryMax      int
	HistoryMaxBytes int64
	HistoryErr      error
	// HistoryPlaintext is CHATCLI_HISTORY_PLAINTEXT (default off): with
	// EncryptionKey set, keep the input history in plaintext instead of
	// sealing its lines.
	HistoryPlaintext bool
	// Autosave is CHATCLI_SESSION_AUTOSAVE (default true): save unbound
	// REPL conversations on exit.
	Autosave bool
	// MCPAutosave is CHATCLI_MCP_SESSION_AUTOSAVE: mirror each unbound
	// conversation of `chatcli mcp-server` to the session mcp-<id> after
	// every turn. When unset it follows Autosave.
	MCPAutosave bool
	// Transcript is CHATCLI_SESSION_TRANSCRIPT (default true): keep a
	// journal under every conversation.
	Transcript bool
	// WriteThrough is CHATCLI_SESSION_WRITETHROUGH (default true): a bound
	// session takes each turn as it lands and adopts other windows' turns;
	// off, it is written only when saved, detached, replaced or at exit,
	// and adopts nothing (conversation.Options.NoWriteThrough).
	WriteThrough bool
	// ContextWindow is CHATCLI_CONTEXT_WINDOW for every model: a context
	// size in tokens; 0 means the default for the model. ContextWindows
	// holds per-model sizes from the same variable's "model=tokens,…" form.
	ContextWindow  int
	ContextWindows map[string]int
	// RequestTimeout bounds one LLM request, streaming included
	// (CHATCLI_REQUEST_TIMEOUT, a Go duration such as 90s or 10m; default
	// DefaultRequestTimeout).
	RequestTimeout time.Duration
	// MaxTokens caps each reply, in tokens (-p --max-tokens); 0 leaves it
	// to the provider.
	MaxTokens int
	// SessionTTL is CHATCLI_SESSION_TTL: machine-made sessions (autosave-,
	// mcp-) not updated for this long are moved to the trash, and journals
	// no session names are deleted after this long without a write. 0
	// disables both. Default DefaultSessionTTL; see ParseTTL.
	SessionTTL time.Duration
	// AutosaveKeep is CHATCLI_SESSION_AUTOSAVE_KEEP: at most this many
	// machine-made sessions per prefix are kept, newest first; 0 means no
	// limit. Default DefaultAutosaveKeep.
	AutosaveKeep int
	// EncryptionKey is CHATCLI_ENCRYPTION_KEY parsed (key.go); the zero Key
	// when unset: session files and journals are then written in plaintext.
	EncryptionKey seal.Key
	// Passphrase is set when CHATCLI_ENCRYPTION_KEY is a passphrase, not
	// a key (keysalt.go).
	Passphrase bool
	// ChatCLIKey opens session files ChatCLI encrypted (key.go).
	ChatCLIKey seal.ChatCLIKey
	// Render is CHATCLI_RENDER (default true): on a terminal, the REPL
	// renders replies as Markdown. NoColor is true when NO_COLOR is set
	// (no-color.org) or CLICOLOR is 0: output has no colour, and replies
	// are plain.
	Render, NoColor bool
	// Agent is the agent and coder mode settings (CHATCLI_AGENT_*).
	Agent Agent
	// ResumeReplay is CHATCLI_RESUME_REPLAY: how many of the last messages
	// are shown when a session is loaded or resumed (0 for none). Default
	// DefaultResumeReplay.
	ResumeReplay int

	fromEnv map[string]bool // variables whose value was taken
	file    *File           // the config file beneath the environment (Load)
	env     func(string) string
	oldKey  string // CHATCLI_ENCRYPTION_KEY_OLD, parsed by OldKey
	// settingsProvider is the provider the settings name; chosen maps a
	// variable to the flag or command that chose its value over them
	// (Choose).
	settingsProvider string
	chosen           map[string]string
}

// DefaultRequestTimeout is the LLM request limit when none is configured.
const DefaultRequestTimeout = 10 * time.Minute

// FromEnv reads the configuration through getenv (os.Getenv in main). A
// provider or model given on the command line overrides it through
// Override. OPENAI_API_URL, ChatCLI's full /chat/completions URL, is
// accepted as an alias of OPENAI_BASE_URL.
func FromEnv(getenv func(string) string) (Config, error) {
	c, err := fromEnv(getenv)
	c.fromEnv = map[string]bool{}
	for _, k := range []string{"CHATCLI_HOME", "CHATCLI_SESSION_AUTOSAVE", "CHATCLI_MCP_SESSION_AUTOSAVE", "CHATCLI_SESSION_TRANSCRIPT", "CHATCLI_SESSION_WRITETHROUGH", "HISTORY_FILE",
		"CHATCLI_REQUEST_TIMEOUT", "LLM_PROVIDER", "CHATCLI_CONTEXT_WINDOW", "CHATCLI_SESSION_TTL", "CHATCLI_SESSION_AUTOSAVE_KEEP",
		EnvEncryptionKey, EnvHistoryPlaintext} {
		c.fromEnv[k] = getenv(k) != ""
	}
	c.fromEnv["HISTORY_MAX_SIZE"] = getenv("HISTORY_MAX_SIZE") != "" && c.HistoryMaxBytes != DefaultHistoryMaxBytes
	return c, err
}

func fromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Home:             getenv("CHATCLI_HOME"),
		OpenAIKey:        getenv("OPENAI_API_KEY"),
		OpenAIBaseURL:    getenv("OPENAI_BASE_URL"),
		OpenAIModel:      getenv("OPENAI_MODEL"),
		AnthropicModel:   firstNonEmpty(getenv("ANTHROPIC_MODEL"), getenv("CLAUDEAI_MODEL")),
		AnthropicKey:     firstNonEmpty(getenv("ANTHROPIC_API_KEY"), getenv("CLAUDEAI_API_KEY")),
		AnthropicBaseURL: getenv("ANTHROPIC_BASE_URL"),
		HistoryFile:      getenv("HISTORY_FILE"),
		HistoryMax:       DefaultHistoryMax,
		HistoryMaxBytes:  DefaultHistoryMaxBytes,
		Autosave:         true,
		Transcript:       true,
		WriteThrough:     true,
		SessionTTL:       DefaultSessionTTL,
		AutosaveKeep:     DefaultAutosaveKeep,
		Render:           true,
		NoColor:          getenv("NO_COLOR") != "" || getenv("CLICOLOR") == "0",
	}
	if c.Home == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return c, i18n.Errorf("%w: CHATCLI_HOME is unset and the home directory is unknown: %v", ErrConfig, err)
		}
		c.Home = filepath.Join(home, ".chatcli")
	}
	if c.OpenAIBaseURL == "" {
		// The openai provider turns a full endpoint URL into its base.
		c.OpenAIBaseURL = getenv("OPENAI_API_URL")
	}
	if c.HistoryFile == "" {
		c.HistoryFile = filepath.Join(c.Home, "history")
	} else if p, err := expandHome(c.HistoryFile, getenv); err == nil {
		c.HistoryFile = p
	}
	if v := getenv("HISTORY_MAX_SIZE"); v != "" {
		if n, err := ParseByteSize(v); err == nil {
			c.HistoryMaxBytes = n
		} else {
			c.HistoryErr = fmt.Errorf("HISTORY_MAX_SIZE: %w", err)
		}
	}
	if v := getenv("CHATCLI_CONTEXT_WINDOW"); v != "" {
		if err := c.parseContextWindow(v); err != nil {
			return c, err
		}
	}
	c.RequestTimeout = DefaultRequestTimeout
	if v := getenv("CHATCLI_REQUEST_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, i18n.Errorf("%w: CHATCLI_REQUEST_TIMEOUT=%q: want a duration such as 90s or 10m", ErrConfig, v)
		}
		c.RequestTimeout = d
	}
	if err := c.readRetention(getenv); err != nil {
		return c, err
	}
	if err := c.readKeys(getenv); err != nil {
		return c, err
	}
	if err := c.readAgent(getenv); err != nil {
		return c, err
	}
	if err := c.readResumeReplay(getenv); err != nil {
		return c, err
	}
	for name, dst := range map[string]*bool{"CHATCLI_SESSION_AUTOSAVE": &c.Autosave, "CHATCLI_SESSION_TRANSCRIPT": &c.Transcript,
		"CHATCLI_SESSION_WRITETHROUGH": &c.WriteThrough, "CHATCLI_RENDER": &c.Render} {
		if v := getenv(name); v != "" {
			b, err := ParseBool(v)
			if err != nil {
				return c, i18n.Errorf("%w: %s=%q: %v", ErrConfig, name, v, err)
			}
			*dst = b
		}
	}
	c.MCPAutosave = c.Autosave
	if v := getenv("CHATCLI_MCP_SESSION_AUTOSAVE"); v != "" {
		b, err := ParseBool(v)
		if err != nil {
			return c, i18n.Errorf("%w: %s=%q: %v", ErrConfig, "CHATCLI_MCP_SESSION_AUTOSAVE", v, err)
		}
		c.MCPAutosave = b
	}
	c.readEndpoints(getenv)
	c.readBedrock(getenv)
	c.Provider = canonicalProvider(getenv("LLM_PROVIDER"))
	if c.Provider == "" {
		switch {
		case c.OpenAIKey != "" || c.OpenAIBaseURL != "":
			c.Provider = ProviderOpenAI
		case c.AnthropicKey != "" || c.AnthropicBaseURL != "":
			c.Provider = ProviderAnthropic
		default:
			c.Provider = ProviderOffline
		}
	}
	if err := c.Override(c.Provider, ""); err != nil {
		c.ProviderErr = err
	}
	c.settingsProvider = c.Provider
	return c, nil
}

// Override sets the provider and the model: model when not empty, else the
// provider's model from the environment, else its default. The name is
// taken in any case, ChatCLI's names included (CLAUDEAI is anthropic,
// GITHUB-MODELS github_models). A provider chatcli cannot serve is an
// error wrapping ErrUnsupportedProvider that names the ones it can; the
// configuration is then unchanged.
func (c *Config) Override(provider, model string) error {
	provider = canonicalProvider(provider)
	def, ok := c.settingsModel(provider)
	if !ok {
		return unsupported(provider)
	}
	c.Provider, c.Model, c.ProviderErr = provider, firstNonEmpty(model, def), nil
	return nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// HistoryFileSet reports whether HISTORY_FILE chose the input history.
func (c Config) HistoryFileSet() bool { return c.fromEnv["HISTORY_FILE"] }

// SessionsDir is <Home>/sessions.
func (c Config) SessionsDir() string { return filepath.Join(c.Home, "sessions") }

// TranscriptsDir is <Home>/transcripts, or "" when the journal is off.
func (c Config) TranscriptsDir() string {
	if !c.Transcript {
		return ""
	}
	return filepath.Join(c.Home, "transcripts")
}

// ParseBool reads on/off settings: 1, true, yes, on, enabled and 0, false,
// no, off, disabled (ChatCLI's words), in any case.
func ParseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on", "enabled", "enable":
		return true, nil
	case "0", "false", "no", "off", "disabled", "disable":
		return false, nil
	}
	return false, i18n.Errorf("want on or off (1/0, true/false, yes/no, enabled/disabled)")
}

// Setting is one configuration value as /config shows it.
type Setting struct {
	Name   string // the environment variable
	Value  string
	Source string // "environment" or "default"
	// Said is Value as a catalog phrase when Value is prose ("by model"),
	// for a Printer to say in its language; zero for a plain value.
	Said i18n.Text
	// By is the flag or command ("--model", "/model", "/switch") that
	// chose Value over the setting Source names (Config.Choose); "" when
	// Value is the setting's own.
	By string
}

// SessionSettings lists the settings that govern sessions, with their value
// and where it came from. CHATCLI_ENCRYPTION_KEY is shown as set or not
// set, never its value.
func (c Config) SessionSettings() []Setting {
	onOff := map[bool]string{true: "on", false: "off"}
	out := []Setting{
		{Name: "CHATCLI_HOME", Value: c.Home},
		{Name: "CHATCLI_SESSION_AUTOSAVE", Value: onOff[c.Autosave]},
		{Name: "CHATCLI_MCP_SESSION_AUTOSAVE", Value: onOff[c.MCPAutosave]},
		{Name: "CHATCLI_SESSION_TRANSCRIPT", Value: onOff[c.Transcript]},
		{Name: "CHATCLI_SESSION_WRITETHROUGH", Value: onOff[c.WriteThrough]},
		{Name: "HISTORY_FILE", Value: c.HistoryFile},
		{Name: "HISTORY_MAX_SIZE", Value: historySizeSetting(c), Said: historySizeText(c)},
		{Name: EnvHistoryPlaintext, Value: onOff[c.HistoryPlaintext]},
		{Name: "CHATCLI_REQUEST_TIMEOUT", Value: c.RequestTimeout.String()},
		{Name: "CHATCLI_SESSION_TTL", Value: FormatTTL(c.SessionTTL)},
		{Name: "CHATCLI_SESSION_AUTOSAVE_KEEP", Value: keepString(c.AutosaveKeep)},
		{Name: "CHATCLI_CONTEXT_WINDOW", Value: contextWindowText(c), Said: contextWindowSaid(c)},
		{Name: "LLM_PROVIDER", Value: c.Provider},
		{Name: EnvEncryptionKey, Value: keyState(c)},
	}
	for i := range out {
		out[i].Source = "default"
		if src := c.sourceOf(out[i].Name); src != "" {
			out[i].Source = src
		} else if out[i].Name == "CHATCLI_MCP_SESSION_AUTOSAVE" && c.fromEnv["CHATCLI_SESSION_AUTOSAVE"] {
			out[i].Source = "follows CHATCLI_SESSION_AUTOSAVE"
		} else if out[i].Name == "LLM_PROVIDER" && c.providerOfSettings() != ProviderOffline {
			out[i].Source = "detected from the API settings"
		}
		c.markChosen(&out[i])
	}
	if m, ok := c.modelSetting(); ok {
		out = append(out, m)
	}
	return out
}

// chatcliDefaultModels are ChatCLI 1.188.0's default models
// (config/defaults.go), said beside chatcli's where they differ.
var chatcliDefaultModels = map[string]string{"OPENAI_MODEL": "gpt-5.4", "ANTHROPIC_MODEL": "claude-sonnet-4-6"}

// modelSetting is the model row of SessionSettings: the provider's model
// variable, and when it is unset, the default and ChatCLI's when it differs.
func (c Config) modelSetting() (Setting, bool) {
	name := c.modelVar()
	set := map[string]string{"OPENAI_MODEL": c.OpenAIModel, "ANTHROPIC_MODEL": c.AnthropicModel}[name]
	if name == "BEDROCK_MODEL" && c.Bedrock.Model != DefaultBedrockModel {
		set = c.Bedrock.Model
	}
	if e, ok := c.Endpoints[c.Provider]; ok {
		set = ""
		if e.Model != e.DefaultModel {
			set = e.Model
		}
	}
	if name == "" {
		return Setting{}, false
	}
	s := Setting{Name: name, Value: c.Model, Source: "environment"}
	if set == "" {
		s.Source = "default"
		if cc := chatcliDefaultModels[name]; cc != "" && cc != c.Model {
			s.Source = "default (ChatCLI's default is " + cc + ")"
		}
	}
	c.markChosen(&s)
	return s, true
}

// keyState is what /config shows for CHATCLI_ENCRYPTION_KEY: whether it
// is set, never the key.
func keyState(c Config) string {
	if c.EncryptionKey.IsZero() {
		return "not set (files are plaintext)"
	}
	if c.Passphrase {
		return "set, a passphrase (Argon2id, salt in " + KeySaltFileName + "; sessions and journals are sealed)"
	}
	return "set (sessions and journals are sealed)"
}

// readRetention reads CHATCLI_SESSION_TTL and CHATCLI_SESSION_AUTOSAVE_KEEP.
// A value that cannot be read is refused rather than guessed: these
// settings decide what is removed.
func (c *Config) readRetention(getenv func(string) string) error {
	if v := getenv("CHATCLI_SESSION_TTL"); v != "" {
		d, err := ParseTTL(v)
		if err != nil {
			return i18n.Errorf("%w: CHATCLI_SESSION_TTL=%q: %v", ErrConfig, v, err)
		}
		c.SessionTTL = d
	}
	if v := getenv("CHATCLI_SESSION_AUTOSAVE_KEEP"); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return i18n.Errorf("%w: CHATCLI_SESSION_AUTOSAVE_KEEP=%q: want a number of sessions (0 for no limit)", ErrConfig, v)
		}
		c.AutosaveKeep = n
	}
	return nil
}

// ParseTTL reads a retention period: "90d" (days), a bare number of days
// ("30"), a Go duration ("12h", "90m") or "0" to disable. Negative values
// are refused.
func ParseTTL(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	bad := i18n.Errorf("want days such as 90d or 30, a duration such as 12h, or 0 to disable")
	days, isDays := strings.CutSuffix(v, "d")
	if n, err := strconv.Atoi(days); err == nil {
		if n < 0 || n > 100*365 {
			return 0, bad
		}
		return time.Duration(n) * 24 * time.Hour, nil
	} else if isDays {
		return 0, bad
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, bad
	}
	return d, nil
}

// FormatTTL writes a retention period the way ParseTTL reads it: "0 (off)"
// for zero, whole days as "90d", whole hours as "12h", whole minutes as
// "90m", any other period as a Go duration.
func FormatTTL(d time.Duration) string {
	for _, u := range []struct {
		d      time.Duration
		suffix string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}} {
		if d != 0 && d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.suffix
		}
	}
	if d == 0 {
		return "0 (off)"
	}
	return d.String()
}

func keepString(n int) string {
	if n == 0 {
		return "0 (no limit)"
	}
	return strconv.Itoa(n)
}

// parseContextWindow reads CHATCLI_CONTEXT_WINDOW: a number of tokens for
// every model ("128000"), or per-model sizes ("gpt-4o=128000,llama3.2=8192";
// a bare number in the list is the size for the other models).
func (c *Config) parseContextWindow(v string) error {
	bad := i18n.Errorf("%w: CHATCLI_CONTEXT_WINDOW=%q: want tokens (at least 1024), or model=tokens pairs separated by commas", ErrConfig, v)
	for _, part := range strings.Split(v, ",") {
		model, tokens, perModel := strings.Cut(strings.TrimSpace(part), "=")
		if !perModel {
			tokens = model
		}
		n, err := strconv.Atoi(strings.TrimSpace(tokens))
		if err != nil || n < 1024 || (perModel && strings.TrimSpace(model) == "") {
			return bad
		}
		if !perModel {
			c.ContextWindow = n
			continue
		}
		if c.ContextWindows == nil {
			c.ContextWindows = map[string]int{}
		}
		c.ContextWindows[strings.TrimSpace(model)] = n
	}
	return nil
}

// ContextWindowFor returns the configured context size of model in tokens,
// 0 when none is configured (the engine then uses its defaults).
func (c Config) ContextWindowFor(model string) int {
	if n, ok := c.ContextWindows[model]; ok {
		return n
	}
	return c.ContextWindow
}

// contextWindowSaid is contextWindowText as a catalog phrase when it is
// prose ("by model").
func contextWindowSaid(c Config) i18n.Text {
	if c.ContextWindow == 0 && len(c.ContextWindows) == 0 {
		return i18n.Textf("by model")
	}
	return i18n.Text{}
}

func contextWindowText(c Config) string {
	if c.ContextWindow == 0 && len(c.ContextWindows) == 0 {
		return "by model"
	}
	var parts []string
	for m, n := range c.ContextWindows {
		parts = append(parts, fmt.Sprintf("%s=%d", m, n))
	}
	sort.Strings(parts)
	if c.ContextWindow > 0 {
		parts = append(parts, strconv.Itoa(c.ContextWindow))
	}
	return strings.Join(parts, ",")
}
