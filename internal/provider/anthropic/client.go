package anthropic

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/chatcli/chatcli/internal/provider"
)

// Name is the provider name this package reports.
const Name = "anthropic"

// DefaultBaseURL is the Anthropic API; Config.BaseURL replaces it.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultMaxTokens caps a reply, in tokens, when neither Config.MaxTokens
// nor the request sets a limit: the Messages API requires max_tokens.
const DefaultMaxTokens = 4096

// DefaultMaxRetries is how many times a failed request is retried when
// Config.MaxRetries is 0.
const DefaultMaxRetries = 2

// Config configures a Client. Only Model is required.
type Config struct {
	// APIKey is the credential, sent the way the SDK sends it
	// ("Authorization: Bearer <key>"); empty sends none (a proxy may add
	// its own).
	APIKey string
	// Model is the model name, e.g. "claude-sonnet-4-5".
	Model string
	// BaseURL is the API root, ANTHROPIC_BASE_URL style, e.g.
	// "https://api.anthropic.com"; requests go to <BaseURL>/v1/messages.
	// It goes through BaseURLFromEndpoint, so ".../v1" and
	// ".../v1/messages" work too. Empty means DefaultBaseURL.
	BaseURL string
	// HTTPClient sends the requests; nil means a plain &http.Client{}.
	HTTPClient *http.Client
	// Timeout bounds one whole Chat call, from connecting to the last
	// streamed byte; 0 means no limit other than the caller's context.
	Timeout time.Duration
	// MaxTokens caps each reply, in tokens, when the request sets no cap;
	// 0 means DefaultMaxTokens.
	MaxTokens int
	// MaxRetries is how many times the SDK retries a request that failed
	// before any reply came (connection errors, 408, 409, 429, 5xx
	// including 529 overloaded, or as the server's x-should-retry header
	// says); 0 means DefaultMaxRetries and a negative value no retry. Each
	// retry is told, before its wait, to the OnRetry of the request's
	// context (provider.WithOnRetry).
	MaxRetries int
}

// Client is a provider.Provider for the Messages API. It is safe for
// concurrent use. No setting is read from the environment: the SDK's
// ANTHROPIC_* defaults are turned off, Config is the whole configuration.
type Client struct {
	sdk       anthropic.Client
	name      string // Name, or BedrockName
	model     string
	timeout   time.Duration
	maxTokens int
}

var _ provider.Provider = (*Client)(nil)

// New returns a client for cfg. It fails when Model is empty or BaseURL is
// not an absolute http(s) URL; it does not contact the server.
func New(cfg Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, errors.New("anthropic: no model configured")
	}
	base, err := provider.BaseURL(Name, BaseURLFromEndpoint(cfg.BaseURL), DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	retries := provider.Retries(cfg.MaxRetries, DefaultMaxRetries)
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(base + "/"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(retries),
		option.WithMiddleware(provider.RetryMiddleware(Name, retries, 0)),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	maxTokens := cfg.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	return &Client{sdk: anthropic.NewClient(opts...), name: Name, model: cfg.Model, timeout: cfg.Timeout, maxTokens: maxTokens}, nil
}

// BaseURLFromEndpoint turns a full Messages endpoint URL
// ("https://host/v1/messages") or an API root with the version
// ("https://host/v1") into the base URL Config.BaseURL wants
// ("https://host"), without a trailing slash.
func BaseURLFromEndpoint(endpoint string) string {
	s := strings.TrimRight(strings.TrimSpace(endpoint), "/")
	s = strings.TrimSuffix(s, "/messages")
	s = strings.TrimSuffix(s, "/v1")
	return strings.TrimRight(s, "/")
}

// Name returns "anthropic" (BedrockName for a client made by NewBedrock).
func (c *Client) Name() string { return c.name }

// Model returns the configured model name.
func (c *Client) Model() string { return c.model }

// Chat streams one reply; see the package doc for the protocol and
// provider.Provider for the contract. Every error is a *provider.Error.
func (c *Client) Chat(ctx context.Context, req provider.Request, onDelta func(text string)) (provider.Response, error) {
	ctx, cancel := provider.WithTimeout(ctx, c.timeout)
	defer cancel()
	maxTokens := c.maxTokens
	if req.MaxTokens > 0 {
		maxTokens = req.MaxTokens
	}
	source := c.name + "/" + c.model
	params, err := toParams(c.model, source, int64(maxTokens), req.Messages, req.Tools)
	if err != nil {
		e := provider.Classify(c.name, 0, "", err)
		e.Kind = provider.KindBadRequest
		return provider.Response{}, e
	}
	var res *http.Response
	stream := c.sdk.Messages.NewStreaming(ctx, params, option.WithResponseInto(&res))
	defer stream.Close()
	resp, err := readStream(stream, source, onDelta)
	if err != nil {
		return provider.Response{}, classify(ctx, c.name, res, err)
	}
	return resp, nil
}
