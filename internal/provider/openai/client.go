package openai

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/chatcli/chatcli/internal/provider"
)

// Name is the provider name this package reports.
const Name = "openai"

// DefaultBaseURL is the OpenAI API; Config.BaseURL replaces it.
const DefaultBaseURL = "https://api.openai.com/v1/"

// PresetGemini is the Config.Preset of Gemini's OpenAI-compatible
// endpoint; a client for it reports the provider name "googleai".
const PresetGemini = "googleai"

// DefaultMaxRetries is how many times a failed request is retried when
// Config.MaxRetries is 0.
const DefaultMaxRetries = 2

// Config configures a Client. Only Model is required.
type Config struct {
	// APIKey is sent as "Authorization: Bearer <key>". Empty is allowed: a
	// local server such as Ollama needs none, and no Authorization header
	// is sent then (OPENAI_API_KEY in the environment is not used).
	APIKey string
	// Model is the model name, e.g. "gpt-4o-mini" or "llama3.2".
	Model string
	// BaseURL is the API root in OPENAI_BASE_URL style, e.g.
	// "http://127.0.0.1:11434/v1"; requests go to <BaseURL>/chat/completions.
	// Empty means DefaultBaseURL. For a full endpoint URL see
	// BaseURLFromEndpoint.
	BaseURL string
	// HTTPClient sends the requests; nil means the SDK's default client.
	HTTPClient *http.Client
	// Timeout bounds one whole Chat call, from connecting to the last
	// streamed byte; 0 means no limit other than the caller's context.
	Timeout time.Duration
	// MaxRetries is how many times the SDK retries a request that failed
	// with a connection error, 408, 409, 429 or 5xx before any reply came;
	// 0 means DefaultMaxRetries and a negative value means no retry. Each
	// retry is told, before its wait, to the OnRetry of the request's
	// context (provider.WithOnRetry).
	MaxRetries int
	// Preset names the OpenAI-compatible service behind BaseURL when its
	// rules differ from OpenAI's: PresetGemini applies Gemini's (package doc).
	// Other values, and "", are plain chat completions.
	Preset string
}

// Client is a provider.Provider talking the chat-completions protocol.
// It is safe for concurrent use. Config sets the key, base URL, retries and
// HTTP client; the SDK may still add headers from OPENAI_ORG_ID,
// OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS in the environment.
type Client struct {
	sdk     openai.Client
	name    string // Name: the preset's name, else "openai"
	model   string
	timeout time.Duration
	dialect dialect
}

var _ provider.Provider = (*Client)(nil)

// New returns a client for cfg. It fails when Model is empty or BaseURL is
// not an absolute http(s) URL; it does not contact the server.
func New(cfg Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, errors.New("openai: no model configured")
	}
	base, err := provider.BaseURL(Name, BaseURLFromEndpoint(cfg.BaseURL), DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	name := Name
	if cfg.Preset != "" {
		name = cfg.Preset
	}
	retries := provider.Retries(cfg.MaxRetries, DefaultMaxRetries)
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(retries),
		option.WithMiddleware(provider.RetryMiddleware(name, retries, provider.MaxRetryAfterOpenAI)),
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	d := dialect{name: Name, maxCompletion: hostOf(base) == "api.openai.com"}
	if cfg.Preset == PresetGemini {
		d = dialect{name: PresetGemini, gemini: true}
	}
	return &Client{sdk: openai.NewClient(opts...), name: name, model: cfg.Model, timeout: cfg.Timeout, dialect: d}, nil
}

// BaseURLFromEndpoint turns a full chat-completions endpoint URL, the form
// ChatCLI's OPENAI_API_URL takes ("https://host/v1/chat/completions"), into
// the base URL Config.BaseURL wants ("https://host/v1"). A URL without the
// /chat/completions suffix is returned without its trailing slash.
func BaseURLFromEndpoint(endpoint string) string {
	s := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	s = strings.TrimSuffix(s, "/chat/completions")
	return strings.TrimRight(s, "/")
}

// Name returns Config.Preset (such as "ollama" or "googleai"), or "openai"
// without one; errors name the provider by it. Reasoning kept for replay
// is marked with the API's dialect ("openai", or "googleai" for
// PresetGemini), not the preset.
func (c *Client) Name() string { return c.name }

// Model returns the configured model name.
func (c *Client) Model() string { return c.model }

// Chat streams one chat completion; see the package doc for the protocol
// and provider.Provider for the contract. Every error is a *provider.Error.
func (c *Client) Chat(ctx context.Context, req provider.Request, onDelta func(text string)) (provider.Response, error) {
	ctx, cancel := provider.WithTimeout(ctx, c.timeout)
	defer cancel()
	params, err := toParams(c.model, req, c.dialect)
	if err != nil {
		e := provider.Classify(c.name, 0, "", err)
		e.Kind = provider.KindBadRequest
		return provider.Response{}, e
	}
	var res *http.Response
	stream := c.sdk.Chat.Completions.NewStreaming(ctx, params, option.WithResponseInto(&res))
	defer stream.Close()
	resp, err := readStream(stream, c.dialect.source(c.model), c.dialect.gemini, onDelta)
	if err != nil {
		return provider.Response{}, classify(ctx, c.name, res, err)
	}
	return resp, nil
}

// hostOf returns the host of a URL provider.BaseURL accepted.
func hostOf(base string) string {
	u, _ := url.Parse(base)
	return u.Host
}
