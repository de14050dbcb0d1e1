package openai

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/provider"
)

func asProviderError(t *testing.T, err error) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *provider.Error", err, err)
	}
	if !errors.Is(err, provider.ErrProvider) || pe.Provider != "openai" {
		t.Errorf("error %+v does not match provider.ErrProvider or names the wrong provider", pe)
	}
	oneLine(t, err.Error())
	return pe
}

func TestHTTPErrorStatusesAreClassified(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		kind   provider.Kind
		detail string
	}{
		{"401", 401, `{"error":{"message":"Incorrect API key provided: sk-test.\nSee https://platform.openai.com.","type":"invalid_request_error","code":"invalid_api_key"}}`,
			provider.KindAuth, "Incorrect API key provided: sk-test. See https://platform.openai.com."},
		{"403", 403, `{"error":{"message":"Project does not have access","type":"invalid_request_error"}}`, provider.KindAuth, "Project does not have access"},
		{"404 unknown model", 404, `{"error":{"message":"The model ` + "`nope`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","code":"model_not_found"}}`,
			provider.KindModel, "The model `nope` does not exist or you do not have access to it."},
		{"404 ollama", 404, `{"error":"model \"nope\" not found, try pulling it first"}`, provider.KindModel, `model "nope" not found, try pulling it first`},
		{"400 unknown model", 400, `{"error":{"message":"invalid model ID","type":"invalid_request_error"}}`, provider.KindModel, "invalid model ID"},
		{"429", 429, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`, provider.KindRateLimit, "Rate limit reached for requests"},
		{"500", 500, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`, provider.KindServer, "The server had an error while processing your request."},
		{"502 html", 502, `<html><body>Bad Gateway</body></html>`, provider.KindServer, "Bad Gateway"},
		{"422", 422, `{"detail":[{"msg":"field required"}]}`, provider.KindBadRequest, `[{"msg":"field required"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			})
			resp, err := newClient(t, f.url(), nil).Chat(context.Background(), userReq("hi"), nil)
			pe := asProviderError(t, err)
			if pe.Kind != tt.kind || pe.Status != tt.status || pe.Detail != tt.detail {
				t.Errorf("got kind %v status %d detail %q, want %v %d %q", pe.Kind, pe.Status, pe.Detail, tt.kind, tt.status, tt.detail)
			}
			if !strings.Contains(err.Error(), tt.detail) || resp.Message.Content != "" {
				t.Errorf("Error() = %q, resp = %+v", err, resp)
			}
			if f.hits() != 1 {
				t.Errorf("hits = %d, want 1 with retries off", f.hits())
			}
		})
	}
}

func TestDefaultRetriesRepeatServerErrors(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After-Ms", "1")
		apiError(w, 503, "overloaded", "server_error")
	})
	_, err := newClient(t, f.url(), func(c *Config) { c.MaxRetries = 0 }).Chat(context.Background(), userReq("hi"), nil)
	if pe := asProviderError(t, err); pe.Kind != provider.KindServer {
		t.Errorf("kind = %v", pe.Kind)
	}
	if f.hits() != 1+DefaultMaxRetries {
		t.Errorf("hits = %d, want %d", f.hits(), 1+DefaultMaxRetries)
	}
}

func TestConnectionRefusedIsUnreachable(t *testing.T) {
	_, err := newClient(t, closedURL(t), nil).Chat(context.Background(), userReq("hi"), nil)
	if pe := asProviderError(t, err); pe.Kind != provider.KindUnreachable || pe.Status != 0 {
		t.Errorf("got %+v: %v", pe, err)
	}
}

func TestTimeouts(t *testing.T) {
	t.Run("no response", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) { stall(r) })
		c := newClient(t, f.url(), func(c *Config) { c.Timeout = 150 * time.Millisecond })
		_, err := c.Chat(context.Background(), userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout {
			t.Errorf("got %+v: %v", pe, err)
		}
	})
	t.Run("stalled stream", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
			sse(w, textChunk("partial"))
			stall(r)
		})
		c := newClient(t, f.url(), func(c *Config) { c.Timeout = 150 * time.Millisecond })
		resp, err := c.Chat(context.Background(), userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout || resp.Message.Content != "" {
			t.Errorf("got %+v, %+v: %v", resp, pe, err)
		}
	})
	t.Run("client timeout", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) { stall(r) })
		hc := &http.Client{Timeout: 150 * time.Millisecond}
		_, err := newClient(t, f.url(), func(c *Config) { c.HTTPClient = hc }).Chat(context.Background(), userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout {
			t.Errorf("got %+v: %v", pe, err)
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) { stall(r) })
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		_, err := newClient(t, f.url(), nil).Chat(ctx, userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout {
			t.Errorf("got %+v: %v", pe, err)
		}
	})
}

func TestCancelMidStream(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, textChunk("first"))
		stall(r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := newClient(t, f.url(), nil).Chat(ctx, userReq("hi"), func(string) { cancel() })
	if pe := asProviderError(t, err); pe.Kind != provider.KindCanceled || resp.Message.Content != "" {
		t.Errorf("got %+v, %+v: %v", resp, pe, err)
	}
}

func TestBrokenStreamsAreErrors(t *testing.T) {
	tests := []struct {
		name  string
		reply func(t *testing.T, w http.ResponseWriter)
		kind  provider.Kind
	}{
		{"connection cut mid-stream", func(t *testing.T, w http.ResponseWriter) {
			sse(w, textChunk("Hello"), toolChunk(0, "call_1", "f", `{"a":`))
			cut(t, w)
		}, provider.KindServer},
		{"clean end without finish_reason or DONE", func(t *testing.T, w http.ResponseWriter) {
			sse(w, textChunk("Hello"), textChunk(" wor"))
		}, provider.KindServer},
		{"empty 200 body", func(t *testing.T, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
		}, provider.KindServer},
		{"server error event", func(t *testing.T, w http.ResponseWriter) {
			sse(w, textChunk("Hello"), `{"error":{"message":"The model crashed.","type":"server_error","code":null}}`)
		}, provider.KindServer},
		{"choice index out of range", func(t *testing.T, w http.ResponseWriter) {
			sse(w, strings.Replace(textChunk("x"), `"index":0`, `"index":500`, 1), chunk(`{}`, "stop"), done)
		}, provider.KindServer},
		{"rate limit event", func(t *testing.T, w http.ResponseWriter) {
			sse(w, textChunk("Hello"), `{"error":{"message":"Too many tokens.","type":"tokens","code":"rate_limit_exceeded"}}`)
		}, provider.KindRateLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { tt.reply(t, w) })
			resp, err := newClient(t, f.url(), nil).Chat(context.Background(), userReq("hi"), nil)
			pe := asProviderError(t, err)
			if pe.Kind != tt.kind || resp.Message.Content != "" || resp.Message.ToolCalls != nil {
				t.Errorf("got %+v, kind %v (%v), want kind %v and no reply", resp, pe.Kind, err, tt.kind)
			}
		})
	}
}
