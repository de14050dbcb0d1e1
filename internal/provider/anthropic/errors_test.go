package anthropic

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
	if !errors.Is(err, provider.ErrProvider) || pe.Provider != "anthropic" {
		t.Errorf("error %+v does not match provider.ErrProvider or names the wrong provider", pe)
	}
	if s := err.Error(); strings.ContainsAny(s, "\r\n") {
		t.Errorf("error text spans lines: %q", s)
	}
	return pe
}

func TestHTTPErrorStatusesAreClassified(t *testing.T) {
	tests := []struct {
		name   string
		status int
		typ    string
		msg    string
		kind   provider.Kind
		detail string
	}{
		{"401", 401, "authentication_error", "invalid x-api-key", provider.KindAuth, "invalid x-api-key"},
		{"403", 403, "permission_error", "Your API key does not have permission\nto use the specified resource.", provider.KindAuth,
			"Your API key does not have permission to use the specified resource."},
		{"404 unknown model", 404, "not_found_error", "model: claude-nope", provider.KindModel, "model: claude-nope"},
		{"429", 429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", provider.KindRateLimit,
			"Number of request tokens has exceeded your per-minute rate limit"},
		{"500", 500, "api_error", "Internal server error", provider.KindServer, "Internal server error"},
		{"529 overloaded", 529, "overloaded_error", "Overloaded", provider.KindServer, "Overloaded"},
		{"413", 413, "request_too_large", "Request exceeds the maximum allowed number of bytes.", provider.KindBadRequest,
			"Request exceeds the maximum allowed number of bytes."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { apiError(w, tt.status, tt.typ, tt.msg) })
			resp, err := newClient(t, f.URL, nil).Chat(context.Background(), userReq("hi"), nil)
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

func TestDefaultRetriesRepeatOverloaded(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After-Ms", "1")
		apiError(w, 529, "overloaded_error", "Overloaded")
	})
	_, err := newClient(t, f.URL, func(c *Config) { c.MaxRetries = 0 }).Chat(context.Background(), userReq("hi"), nil)
	if pe := asProviderError(t, err); pe.Kind != provider.KindServer {
		t.Errorf("kind = %v", pe.Kind)
	}
	if f.hits() != 1+DefaultMaxRetries {
		t.Errorf("hits = %d, want %d", f.hits(), 1+DefaultMaxRetries)
	}
}

func TestNonJSONErrorBody(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1>\n</body></html>"))
	})
	_, err := newClient(t, f.URL, nil).Chat(context.Background(), userReq("hi"), nil)
	if pe := asProviderError(t, err); pe.Kind != provider.KindServer || pe.Status != 502 || pe.Detail != "Bad Gateway" {
		t.Errorf("got %+v: %v", pe, err)
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
		c := newClient(t, f.URL, func(c *Config) { c.Timeout = 150 * time.Millisecond })
		_, err := c.Chat(context.Background(), userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout || !strings.Contains(pe.Detail, "150ms") {
			t.Errorf("got %+v: %v", pe, err)
		}
	})
	t.Run("stalled stream", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
			sse(w, messageStart(5), textStart(0), textDelta(0, "partial"))
			stall(r)
		})
		c := newClient(t, f.URL, func(c *Config) { c.Timeout = 150 * time.Millisecond })
		resp, err := c.Chat(context.Background(), userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout || resp.Message.Content != "" {
			t.Errorf("got %+v, %+v: %v", resp, pe, err)
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		f := newFake(t, func(w http.ResponseWriter, r *http.Request) { stall(r) })
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		_, err := newClient(t, f.URL, nil).Chat(ctx, userReq("hi"), nil)
		if pe := asProviderError(t, err); pe.Kind != provider.KindTimeout {
			t.Errorf("got %+v: %v", pe, err)
		}
	})
}

func TestCancelMidStream(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w, messageStart(5), textStart(0), textDelta(0, "first"))
		stall(r)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := newClient(t, f.URL, nil).Chat(ctx, userReq("hi"), func(string) { cancel() })
	if pe := asProviderError(t, err); pe.Kind != provider.KindCanceled || resp.Message.Content != "" {
		t.Errorf("got %+v, %+v: %v", resp, pe, err)
	}
}

func TestBrokenStreamsAreErrors(t *testing.T) {
	tests := []struct {
		name   string
		reply  func(t *testing.T, w http.ResponseWriter)
		kind   provider.Kind
		detail string
	}{
		{"connection cut mid-stream", func(t *testing.T, w http.ResponseWriter) {
			sse(w, messageStart(5), textStart(0), textDelta(0, "Hello"), blockStop(0), toolStart(1, "toolu_a", "f"), jsonDelta(1, `{"a":`))
			cut(t, w)
		}, provider.KindServer, "reply stream ended before the reply was complete"},
		{"clean end without message_stop", func(t *testing.T, w http.ResponseWriter) {
			sse(w, messageStart(5), textStart(0), textDelta(0, "Hello"), blockStop(0), messageDelta("end_turn", 2))
		}, provider.KindServer, "reply stream ended before the reply was complete"},
		{"overloaded error event", func(t *testing.T, w http.ResponseWriter) {
			sse(w, messageStart(5), textStart(0), textDelta(0, "Hello"), errorEvent("overloaded_error", "Overloaded"))
		}, provider.KindServer, "Overloaded"},
		{"rate limit error event", func(t *testing.T, w http.ResponseWriter) {
			sse(w, messageStart(5), ping, errorEvent("rate_limit_error", "Rate limited"))
		}, provider.KindRateLimit, "Rate limited"},
		{"block index out of order", func(t *testing.T, w http.ResponseWriter) {
			sse(w, messageStart(5), textStart(1), textDelta(1, "x"), blockStop(1), messageDelta("end_turn", 2), messageStop)
		}, provider.KindServer, "malformed reply stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { tt.reply(t, w) })
			var got strings.Builder
			resp, err := newClient(t, f.URL, nil).Chat(context.Background(), userReq("hi"), func(s string) { got.WriteString(s) })
			pe := asProviderError(t, err)
			if pe.Kind != tt.kind || pe.Status != 0 || !strings.Contains(pe.Detail, tt.detail) {
				t.Errorf("got kind %v status %d detail %q, want %v, 0, %q", pe.Kind, pe.Status, pe.Detail, tt.kind, tt.detail)
			}
			if resp.Message.Content != "" || resp.Message.ToolCalls != nil {
				t.Errorf("a broken stream returned a reply: %+v (deltas seen: %q)", resp, got.String())
			}
		})
	}
}
