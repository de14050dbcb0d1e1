package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestClassify(t *testing.T) {
	refused := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1", Err: &net.OpError{Op: "dial", Net: "tcp",
		Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}
	dns := &url.Error{Op: "Post", URL: "http://nohost.invalid/v1", Err: &net.OpError{Op: "dial", Net: "tcp",
		Err: &net.DNSError{Err: "no such host", Name: "nohost.invalid", IsNotFound: true}}}
	clientTimeout := &url.Error{Op: "Post", URL: "http://x", Err: os.ErrDeadlineExceeded}
	tests := []struct {
		name   string
		status int
		detail string
		err    error
		kind   Kind
	}{
		{"401", 401, "bad key", nil, KindAuth},
		{"403", 403, "", nil, KindAuth},
		{"404", 404, "Not Found", nil, KindModel},
		{"400 unknown model", 400, "model 'x' not found", nil, KindModel},
		{"400", 400, "messages: field required", nil, KindBadRequest},
		{"408", 408, "", nil, KindTimeout},
		{"422", 422, "", nil, KindBadRequest},
		{"429", 429, "slow down", nil, KindRateLimit},
		{"500", 500, "", nil, KindServer},
		{"529", 529, "Overloaded", nil, KindServer},
		{"status wins over context", 500, "", context.Canceled, KindServer},
		{"canceled", 0, "", fmt.Errorf("read: %w", context.Canceled), KindCanceled},
		{"deadline", 0, "", context.DeadlineExceeded, KindTimeout},
		{"client timeout", 0, "", clientTimeout, KindTimeout},
		{"refused", 0, "", refused, KindUnreachable},
		{"dns", 0, "", dns, KindUnreachable},
		{"bare refused", 0, "", syscall.ECONNREFUSED, KindUnreachable},
		{"cut", 0, "", io.ErrUnexpectedEOF, KindServer},
		{"reset", 0, "", &net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, KindServer},
		{"incomplete", 0, "", fmt.Errorf("%w: eof", ErrIncomplete), KindServer},
		{"malformed", 0, "", ErrMalformed, KindServer},
		{"other", 0, "", errors.New("boom"), KindUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Classify("p", tt.status, tt.detail, tt.err)
			if e.Kind != tt.kind || e.Status != tt.status || e.Provider != "p" || !errors.Is(e, ErrProvider) {
				t.Errorf("Classify = %+v, want kind %v", e, tt.kind)
			}
			if tt.err != nil && !errors.Is(e, tt.err) {
				t.Errorf("%v does not unwrap to %v", e, tt.err)
			}
			if strings.ContainsAny(e.Error(), "\n\r") || !strings.HasPrefix(e.Error(), "p: ") {
				t.Errorf("Error() = %q", e.Error())
			}
		})
	}
}

func TestClassifyDetailIsOneClippedLine(t *testing.T) {
	e := Classify("p", 500, "line one\nline two\ttabbed", nil)
	if e.Detail != "line one line two tabbed" {
		t.Errorf("Detail = %q", e.Detail)
	}
	e = Classify("p", 500, strings.Repeat("x", 1000), nil)
	if n := len([]rune(e.Detail)); n != maxDetailChars+1 || !strings.HasSuffix(e.Detail, "…") {
		t.Errorf("Detail has %d characters", n)
	}
	e = Classify("p", 0, "", errors.New("first\nsecond"))
	if e.Detail != "first second" || e.Error() != "p: request failed: first second" {
		t.Errorf("Detail = %q, Error() = %q", e.Detail, e.Error())
	}
	if e := Classify("p", 0, "", context.Canceled); e.Detail != "" || e.Error() != "p: request cancelled" {
		t.Errorf("cancelled: %q", e.Error())
	}
}

func TestKindForErrorType(t *testing.T) {
	for typ, want := range map[string]Kind{
		"authentication_error":       KindAuth,
		"permission_error":           KindAuth,
		"not_found_error":            KindModel,
		"rate_limit_error":           KindRateLimit,
		"tokens rate_limit_exceeded": KindRateLimit,
		"insufficient_quota":         KindRateLimit,
		"invalid_request_error":      KindBadRequest,
		"request_too_large":          KindBadRequest,
		"billing_error":              KindBadRequest,
		"timeout_error":              KindTimeout,
		"api_error":                  KindServer,
		"overloaded_error":           KindServer,
		"server_error":               KindServer,
		"":                           KindServer,
	} {
		if got := KindForErrorType(typ, ""); got != want {
			t.Errorf("KindForErrorType(%q) = %v, want %v", typ, got, want)
		}
	}
	if got := KindForErrorType("invalid_request_error", "model: nope does not exist"); got != KindModel {
		t.Errorf("unknown model in an invalid request = %v", got)
	}
}

func TestErrorDetail(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}`:  "Incorrect API key",
		`{"type":"error","error":{"type":"not_found_error","message":"model: x"}}`:  "model: x",
		`{"error":"model \"x\" not found, try pulling it first"}`:                   `model "x" not found, try pulling it first`,
		`{"message":"Unauthorized"}`:                                                "Unauthorized",
		`[{"error":{"code":400,"message":"bad role","status":"INVALID_ARGUMENT"}}]`: "bad role",
		`{"detail":"Not Found"}`:                                                    "Not Found",
		`{"detail":[{"msg":"field required"}]}`:                                     `[{"msg":"field required"}]`,
		`{"error":{}}`:                                                              "",
		"<html><body>502</body></html>":                                             "",
		"upstream connect error\n":                                                  "upstream connect error",
		"":                                                                          "",
	} {
		if got := ErrorDetail([]byte(body)); got != want {
			t.Errorf("ErrorDetail(%q) = %q, want %q", body, got, want)
		}
	}
}

func TestContextError(t *testing.T) {
	if e := ContextError("p", context.Background(), errors.New("x")); e != nil {
		t.Errorf("live context: %v", e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e := ContextError("p", ctx, io.ErrUnexpectedEOF)
	if e.Kind != KindCanceled || !errors.Is(e, context.Canceled) || !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Errorf("cancelled: %+v", e)
	}
	ctx, cancel = context.WithTimeoutCause(context.Background(), time.Nanosecond, TimeoutCause(2*time.Second))
	defer cancel()
	<-ctx.Done()
	e = ContextError("p", ctx, context.DeadlineExceeded)
	if e.Kind != KindTimeout || e.Error() != "p: request timed out: no complete reply within 2s" {
		t.Errorf("timeout: %+v, %q", e, e.Error())
	}
}

func TestContextLengthErrors(t *testing.T) {
	for _, tt := range []struct {
		status      int
		typ, detail string
	}{
		{400, "", "This model's maximum context length is 8192 tokens. However, your messages resulted in 9500 tokens. Please reduce the length of the messages."},
		{400, "", "prompt is too long: 212345 tokens > 200000 maximum"},
		{400, "", "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."},
		{400, "", "the request exceeds the available context size, try increasing it"},
		{400, "", "Input is too long for requested model."},
		{0, "invalid_request_error context_length_exceeded", "too long"},
		{0, "exceed_context_size_error", ""},
	} {
		e := Classify("p", tt.status, tt.detail, nil)
		if tt.status == 0 {
			e.Kind = KindForErrorType(tt.typ, tt.detail)
		}
		if e.Kind != KindContextLength {
			t.Errorf("%q %q: kind %v", tt.typ, tt.detail, e.Kind)
		}
		if !strings.Contains(e.Error(), "/compact") || !strings.Contains(e.Error(), "/rewind") {
			t.Errorf("no hint: %q", e.Error())
		}
	}
	if e := Classify("p", 429, "Request too large: maximum context length", nil); e.Kind != KindRateLimit {
		t.Errorf("429 = %v", e.Kind)
	}
	if k := KindForErrorType("rate_limit_exceeded", "prompt is too long"); k != KindRateLimit {
		t.Errorf("rate limit type = %v", k)
	}
}

func TestContextLimit(t *testing.T) {
	for detail, want := range map[string]int{
		"This model's maximum context length is 8192 tokens. However, your messages resulted in 9500 tokens.": 8192,
		"prompt is too long: 212345 tokens > 200000 maximum":                                                  200000,
		"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).":             1048576,
		"Prompt contains 40000 tokens, too large for model with 32768 maximum context length":                 32768,
		"the request exceeds the available context size, try increasing it":                                   0,
	} {
		if got := ContextLimit(detail); got != want {
			t.Errorf("ContextLimit(%q) = %d, want %d", detail, got, want)
		}
	}
}
