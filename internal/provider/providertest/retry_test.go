package providertest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/anthropic"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// retrying are the providers with the SDKs' retries as chatcli configures
// them (Config.MaxRetries 0: two retries), each against its strict fake.
var retrying = []target{
	{"openai", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewOpenAI(t, replies...)
		c, err := openai.New(openai.Config{Model: "gpt-test", BaseURL: s.URL + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		return c, s
	}},
	{"anthropic", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewAnthropic(t, replies...)
		c, err := anthropic.New(anthropic.Config{Model: "claude-test", BaseURL: s.URL})
		if err != nil {
			t.Fatal(err)
		}
		return c, s
	}},
	{"bedrock", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewBedrock(t, "us-east-1", "AKIDTEST", "secret", "session-token", replies...)
		c, err := anthropic.NewBedrock(anthropic.BedrockConfig{Model: "anthropic.claude-test-v1:0", Region: s.Region, AccessKeyID: s.AccessKeyID,
			SecretAccessKey: s.SecretAccessKey, SessionToken: s.SessionToken, Endpoint: s.URL})
		if err != nil {
			t.Fatal(err)
		}
		return c, s.Server
	}},
	{"googleai", func(t *testing.T, replies ...providertest.Reply) (provider.Provider, *providertest.Server) {
		s := providertest.NewGemini(t, replies...)
		c, err := openai.New(openai.Config{APIKey: "test-key", Model: "gemini-test", BaseURL: s.URL + "/v1beta/openai", Preset: openai.PresetGemini})
		if err != nil {
			t.Fatal(err)
		}
		return c, s
	}},
}

// chatHearing sends "hi" with a context that records the retries.
func chatHearing(t *testing.T, p provider.Provider) (provider.Response, []provider.Retry, time.Duration, error) {
	t.Helper()
	var heard []provider.Retry
	ctx := provider.WithOnRetry(context.Background(), func(r provider.Retry) { heard = append(heard, r) })
	start := time.Now()
	resp, err := p.Chat(ctx, provider.Request{Messages: []message.Message{user("hi")}}, nil)
	return resp, heard, time.Since(start), err
}

// TestEachRetryIsHeardBeforeItIsMade: a 500 then a streamed reply; the
// retry is told once, with the status, the wait and the attempt, and the
// reply arrives.
func TestEachRetryIsHeardBeforeItIsMade(t *testing.T) {
	for _, tg := range retrying {
		t.Run(tg.name, func(t *testing.T) {
			p, s := tg.start(t, providertest.Reply{Status: 500, ErrType: "api_error", ErrMessage: "Internal server error"},
				providertest.Reply{Text: "hello after the retry"})
			resp, heard, took, err := chatHearing(t, p)
			if err != nil || resp.Message.Content != "hello after the retry" {
				t.Fatalf("reply %q, err %v", resp.Message.Content, err)
			}
			if s.Requests() != 2 || len(heard) != 1 {
				t.Fatalf("%d requests, retries heard %+v", s.Requests(), heard)
			}
			r := heard[0]
			if r.Provider != p.Name() || r.Status != 500 || r.Attempt != 2 || r.Attempts != 3 || r.Err != nil {
				t.Fatalf("heard %+v", r)
			}
			if r.Delay < 375*time.Millisecond || r.Delay > 500*time.Millisecond || took < r.Delay {
				t.Fatalf("delay %v, the call took %v", r.Delay, took)
			}
		})
	}
}

// TestTheServersRetryAfterIsTheWaitSaid: a 429 with Retry-After: 1 is
// announced and waited as one second.
func TestTheServersRetryAfterIsTheWaitSaid(t *testing.T) {
	for _, tg := range retrying[:2] {
		t.Run(tg.name, func(t *testing.T) {
			p, _ := tg.start(t, providertest.Reply{Status: 429, ErrType: "rate_limit_error", ErrMessage: "slow down", RetryAfter: "1"},
				providertest.Reply{Text: "ok"})
			_, heard, took, err := chatHearing(t, p)
			if err != nil || len(heard) != 1 || heard[0].Status != 429 || heard[0].Delay != time.Second || took < time.Second {
				t.Fatalf("err %v, heard %+v, took %v", err, heard, took)
			}
		})
	}
}

// TestEveryRetryIsHeardUntilTheyRunOut: three 503s make two retries,
// each heard, and the error of the last.
func TestEveryRetryIsHeardUntilTheyRunOut(t *testing.T) {
	p, s := retrying[0].start(t, providertest.Reply{Status: 503, ErrType: "server_error", ErrMessage: "unavailable"})
	_, heard, _, err := chatHearing(t, p)
	if err == nil || s.Requests() != 3 || len(heard) != 2 || heard[0].Attempt != 2 || heard[1].Attempt != 3 {
		t.Fatalf("err %v, %d requests, heard %+v", err, s.Requests(), heard)
	}
	if heard[1].Delay < 750*time.Millisecond || heard[1].Delay > time.Second {
		t.Fatalf("the second wait is %v, want the doubled backoff", heard[1].Delay)
	}
}

// TestNoRetryNoNotice: with retries off, or a failure the SDKs do not
// retry, nothing is heard.
func TestNoRetryNoNotice(t *testing.T) {
	s := providertest.NewOpenAI(t, providertest.Reply{Status: 500, ErrType: "server_error", ErrMessage: "boom"})
	c, err := openai.New(openai.Config{Model: "gpt-test", BaseURL: s.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, heard, _, err := chatHearing(t, c); err == nil || len(heard) != 0 {
		t.Fatalf("retries off: err %v, heard %+v", err, heard)
	}
	p, _ := retrying[1].start(t, providertest.Reply{Status: 400, ErrType: "invalid_request_error", ErrMessage: "bad"})
	if _, heard, _, err := chatHearing(t, p); err == nil || len(heard) != 0 {
		t.Fatalf("a 400: err %v, heard %+v", err, heard)
	}
}

// TestAConnectionFailureIsHeardToo: a server that cannot be reached is
// retried by the SDK, and each retry is heard with the error and no
// status.
func TestAConnectionFailureIsHeardToo(t *testing.T) {
	s := providertest.NewOpenAI(t)
	c, err := openai.New(openai.Config{Model: "gpt-test", BaseURL: s.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), provider.Request{Messages: []message.Message{user("hi")}}, nil); err != nil {
		t.Fatal(err) // the fake must be hit once
	}
	s.Close()
	_, heard, _, err := chatHearing(t, c)
	if err == nil || len(heard) != 2 || heard[0].Status != 0 || heard[0].Err == nil || heard[0].Delay != 500*time.Millisecond {
		t.Fatalf("err %v, heard %+v", err, heard)
	}
}

// TestARefusedRedirectIsNotHeard: a base URL that redirects to another
// origin fails at once, openai-go refusing to send the key there and not
// retrying; no retry is told either.
func TestARefusedRedirectIsNotHeard(t *testing.T) {
	var hits atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the request followed the redirect to %s", r.URL)
	}))
	defer elsewhere.Close()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer s.Close()
	c, err := openai.New(openai.Config{Model: "gpt-test", BaseURL: s.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	_, heard, _, err := chatHearing(t, c)
	if err == nil || hits.Load() != 1 || len(heard) != 0 {
		t.Fatalf("err %v, %d requests, heard %+v", err, hits.Load(), heard)
	}
}
