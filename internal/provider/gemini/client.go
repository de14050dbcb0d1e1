package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"google.golang.org/genai"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// Name is the provider name this package reports.
const Name = "googleai"

// DefaultBaseURL is the Gemini API; Config.BaseURL replaces it.
const DefaultBaseURL = "https://generativelanguage.googleapis.com/"

// Config configures a Client. Model and APIKey are required.
type Config struct {
	// APIKey is the Gemini API key, sent as x-goog-api-key.
	APIKey string
	// Model is the model name, e.g. "gemini-2.5-flash".
	Model string
	// BaseURL is the API root, e.g. "https://generativelanguage.googleapis.com";
	// empty means DefaultBaseURL.
	BaseURL string
	// HTTPClient sends the requests; nil means a plain &http.Client{}.
	HTTPClient *http.Client
	// Timeout bounds one whole Chat call; 0 means no limit other than the
	// caller's context.
	Timeout time.Duration
}

// Client is a provider.Provider for the Gemini API. It is safe for
// concurrent use.
type Client struct {
	sdk     *genai.Client
	model   string
	timeout time.Duration
}

var _ provider.Provider = (*Client)(nil)

// New returns a client for cfg. It fails when Model or APIKey is empty or
// BaseURL is not an absolute http(s) URL; it does not contact the server.
func New(cfg Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, errors.New("googleai: no model configured")
	}
	if cfg.APIKey == "" {
		return nil, errors.New("googleai: no API key configured")
	}
	base, err := provider.BaseURL(Name, cfg.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	sdk, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: cfg.APIKey, Backend: genai.BackendGeminiAPI, HTTPClient: hc,
		HTTPOptions: genai.HTTPOptions{BaseURL: strings.TrimRight(base, "/") + "/"},
	})
	if err != nil {
		return nil, fmt.Errorf("googleai: %w", err)
	}
	return &Client{sdk: sdk, model: cfg.Model, timeout: cfg.Timeout}, nil
}

// Name returns "googleai".
func (c *Client) Name() string { return Name }

// Model returns the configured model name.
func (c *Client) Model() string { return c.model }

// Chat streams one reply; see the package doc. Every error is a
// *provider.Error.
func (c *Client) Chat(ctx context.Context, req provider.Request, onDelta func(text string)) (provider.Response, error) {
	ctx, cancel := provider.WithTimeout(ctx, c.timeout)
	defer cancel()
	contents, cfg, err := toRequest(c.model, req)
	if err != nil {
		e := provider.Classify(Name, 0, "", err)
		e.Kind = provider.KindBadRequest
		return provider.Response{}, e
	}
	out := message.Message{Role: message.RoleAssistant}
	var usage provider.Usage
	var text strings.Builder
	var signatures []callSignature
	finish := ""
	for chunk, err := range c.sdk.Models.GenerateContentStream(ctx, c.model, contents, cfg) {
		if err != nil {
			return provider.Response{}, classify(ctx, err)
		}
		if u := chunk.UsageMetadata; u != nil {
			usage = provider.Usage{InputTokens: int(u.PromptTokenCount), OutputTokens: int(u.CandidatesTokenCount)}
		}
		if len(chunk.Candidates) == 0 || chunk.Candidates[0] == nil {
			continue
		}
		cand := chunk.Candidates[0]
		if cand.FinishReason != "" {
			finish = string(cand.FinishReason)
		}
		if cand.Content == nil {
			continue
		}
		for _, p := range cand.Content.Parts {
			switch {
			case p.FunctionCall != nil:
				call := toolCall(p.FunctionCall)
				out.ToolCalls = append(out.ToolCalls, call)
				if len(p.ThoughtSignature) > 0 {
					signatures = append(signatures, callSignature{Index: len(out.ToolCalls) - 1, Signature: p.ThoughtSignature})
				}
			case p.Text != "" && !p.Thought:
				text.WriteString(p.Text)
				if onDelta != nil {
					onDelta(p.Text)
				}
			}
		}
	}
	if finish == "" {
		return provider.Response{}, classify(ctx, provider.ErrIncomplete)
	}
	out.Content = message.ValidUTF8(text.String())
	if r := storedSignatures(signatures, sourceOf(c.model)); r != nil {
		out.Meta = &message.Meta{Reasoning: r}
	}
	return provider.Response{Message: out, Usage: usage, StopReason: finish}, nil
}

// classify turns a failure into a *provider.Error: the SDK's APIError
// carries the HTTP status and the server's message (a context-length error
// reads "The input token count (N) exceeds the maximum number of tokens
// allowed (M)").
func classify(ctx context.Context, err error) *provider.Error {
	if e := provider.ContextError(Name, ctx, err); e != nil {
		return e
	}
	var aerr genai.APIError
	if errors.As(err, &aerr) {
		return provider.Classify(Name, aerr.Code, aerr.Message, err)
	}
	var perr *genai.APIError
	if errors.As(err, &perr) {
		return provider.Classify(Name, perr.Code, perr.Message, err)
	}
	return provider.Classify(Name, 0, "", err)
}
