package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

// ErrIncomplete is wrapped by the error a provider returns when the reply
// stream ended (cleanly or not) before the server marked the reply complete:
// the end-of-stream marker of the wire format ("data: [DONE]" after a
// finish_reason for chat completions, message_stop for Anthropic) never
// came. What was received is discarded, never returned as a reply.
var ErrIncomplete = errors.New("reply stream ended before the reply was complete")

// ErrMalformed is wrapped by the error a provider returns when the server
// sent something the wire format does not allow (an event out of order, a
// chunk the SDK cannot place): the server broke the protocol, so it is
// classified KindServer.
var ErrMalformed = errors.New("server sent a malformed reply stream")

// maxDetailChars caps Error.Detail, in characters.
const maxDetailChars = 300

// Classify builds the *Error for a failed request to providerName.
//
// status is the HTTP status of the response (0 when there was none), detail
// the server's own error message (it is flattened to one line and clipped;
// empty is fine) and err the underlying error. The Kind comes from, in this
// order: the status (see KindForStatus); context.Canceled (KindCanceled);
// context.DeadlineExceeded or any network timeout (KindTimeout); a failed
// dial, which covers connection refused and DNS failures (KindUnreachable);
// a connection that broke off, ErrIncomplete or ErrMalformed (KindServer);
// otherwise KindUnknown. When detail is empty the text of err is used, flattened to
// one line, so Error() is always a single line.
func Classify(providerName string, status int, detail string, err error) *Error {
	e := &Error{Provider: providerName, Status: status, Err: err}
	switch {
	case status >= 400 && status <= 499 && status != http.StatusTooManyRequests && IsContextLength(detail):
		e.Kind = KindContextLength
	case status >= 400:
		e.Kind = KindForStatus(status, detail)
	case errors.Is(err, context.Canceled):
		e.Kind = KindCanceled
	case isTimeout(err):
		e.Kind = KindTimeout
	case isDialFailure(err):
		e.Kind = KindUnreachable
	case errors.Is(err, ErrIncomplete), errors.Is(err, ErrMalformed), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		e.Kind = KindServer
	default:
		e.Kind = KindUnknown
	}
	if detail == "" && err != nil && e.Kind != KindCanceled {
		detail = err.Error()
	}
	e.Detail = message.Clip(detail, maxDetailChars)
	return e
}

// ContextError returns the *Error for err when ctx has ended, and nil while
// ctx is live. What the transport made of a cancelled or expired request
// varies (a context error, a closed body, an unexpected EOF); the context's
// own error is what happened, so err is wrapped around it when it does not
// already match it. A cause set with context.WithTimeoutCause or
// context.WithCancelCause becomes the Detail.
func ContextError(providerName string, ctx context.Context, err error) *Error {
	cerr := ctx.Err()
	if cerr == nil {
		return nil
	}
	if !errors.Is(err, cerr) {
		err = fmt.Errorf("%w: %w", cerr, err)
	}
	cause := context.Cause(ctx)
	if cause == cerr {
		cause = nil
	}
	detail := ""
	if cause != nil {
		detail = cause.Error()
	}
	e := Classify(providerName, 0, detail, err)
	if e.Detail == detail {
		e.Cause = cause
	}
	return e
}

// TimeoutCause is the cause to give context.WithTimeoutCause for a
// provider's own time limit d, so the error says which limit ran out.
func TimeoutCause(d time.Duration) error {
	return i18n.Errorf("no complete reply within %s", d)
}

// WithTimeout bounds ctx by an adapter's own time limit d, with
// TimeoutCause(d) as the cause; d <= 0 leaves ctx as it is.
func WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, d, TimeoutCause(d))
}

// KindForStatus classifies an HTTP error status: 401 and 403 are KindAuth;
// 404, and any other 4xx whose detail says the model is unknown, KindModel;
// 408 KindTimeout; 429 KindRateLimit; 5xx (including Anthropic's 529
// overloaded) KindServer; other 4xx KindBadRequest. Anything else is
// KindUnknown.
func KindForStatus(status int, detail string) Kind {
	switch {
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return KindAuth
	case status == http.StatusNotFound:
		return KindModel
	case status == http.StatusRequestTimeout:
		return KindTimeout
	case status == http.StatusTooManyRequests:
		return KindRateLimit
	case status >= 500 && status <= 599:
		return KindServer
	case status >= 400 && status <= 499:
		if mentionsUnknownModel(detail) {
			return KindModel
		}
		return KindBadRequest
	}
	return KindUnknown
}

// KindForErrorType classifies the "type" (or "code") of an error object a
// server sent inside a stream, where there is no HTTP status to go by:
// OpenAI's invalid_request_error, rate_limit_exceeded, server_error, …;
// Anthropic's authentication_error, permission_error, not_found_error,
// rate_limit_error, billing_error, api_error, overloaded_error, …. Several
// words may be passed at once ("tokens rate_limit_exceeded" for a type and a
// code); Amazon Bedrock's stream exceptions (Bedrock API Reference,
// InvokeModelWithResponseStream: throttlingException,
// validationException, modelTimeoutException, modelStreamErrorException,
// internalServerException, serviceUnavailableException). An unknown or
// empty type is KindServer: the server failed after it had accepted the
// request.
func KindForErrorType(typ, detail string) Kind {
	t := strings.ToLower(typ)
	switch {
	case !strings.Contains(t, "rate_limit") && IsContextLength(t+" "+detail):
		return KindContextLength
	case strings.Contains(t, "auth"), strings.Contains(t, "permission"), strings.Contains(t, "accessdenied"):
		return KindAuth
	case strings.Contains(t, "not_found"), strings.Contains(t, "model_not"):
		return KindModel
	case strings.Contains(t, "rate_limit"), strings.Contains(t, "quota"), strings.Contains(t, "throttl"):
		return KindRateLimit
	case strings.Contains(t, "timeout"):
		return KindTimeout
	case strings.Contains(t, "invalid_request"), strings.Contains(t, "too_large"), strings.Contains(t, "validation"),
		strings.Contains(t, "billing"), strings.Contains(t, "conflict"):
		if mentionsUnknownModel(detail) {
			return KindModel
		}
		return KindBadRequest
	}
	return KindServer
}

// ErrorDetail extracts the server's error message from an error response
// body: error.message (OpenAI, Anthropic, vLLM), error as a string (Ollama's
// native API, llama.cpp), or a top-level message or detail; a JSON array
// (Gemini's OpenAI-compatible endpoint: [{"error":{…}}]) is read by its
// first element. A body that is not JSON is returned as is when it is short
// plain text, and "" when it looks like an HTML page. The result may span
// lines; Classify flattens it.
func ErrorDetail(body []byte) string {
	var list []json.RawMessage
	if json.Unmarshal(body, &list) == nil {
		if len(list) == 0 {
			return ""
		}
		return ErrorDetail(list[0])
	}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		s := strings.TrimSpace(string(body))
		if len(s) > 1000 || strings.HasPrefix(s, "<") {
			return ""
		}
		return s
	}
	var inner struct {
		Message string `json:"message"`
	}
	var str string
	switch {
	case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
		return inner.Message
	case json.Unmarshal(v.Error, &str) == nil && str != "":
		return str
	case v.Message != "":
		return v.Message
	case v.Detail != nil:
		if s, ok := v.Detail.(string); ok {
			return s
		}
		b, _ := json.Marshal(v.Detail)
		return string(b)
	}
	return ""
}

// contextLengthPhrases are what servers say when a request exceeds the
// model's context window, lower-cased: OpenAI's error code
// context_length_exceeded and its message "This model's maximum context
// length is N tokens" (also vLLM, DeepSeek, OpenRouter's "endpoint's maximum
// context length"); Anthropic's "prompt is too long: N tokens > M maximum";
// Gemini's "input token count (N) exceeds the maximum number of tokens
// allowed"; llama.cpp's exceed_context_size_error "the request exceeds the
// available context size"; Bedrock's "Input is too long for requested
// model"; Mistral's "too large for model with N maximum context length".
var contextLengthPhrases = []string{
	"context_length_exceeded", "maximum context length", "prompt is too long", "exceeds the maximum number of tokens",
	"exceed_context_size", "exceeds the available context size", "input is too long", "context length exceeded",
}

// IsContextLength reports whether a server's error message or code says
// the request is longer than the model's context window.
func IsContextLength(detail string) bool {
	d := strings.ToLower(detail)
	for _, p := range contextLengthPhrases {
		if strings.Contains(d, p) {
			return true
		}
	}
	return false
}

// contextLimitPatterns find the model's window, in tokens, in the
// context-length errors of contextLengthPhrases that state it: OpenAI's
// (vLLM's, DeepSeek's) "maximum context length is 8192 tokens",
// Anthropic's "> 200000 maximum", Gemini's "maximum number of tokens
// allowed (1048576)", Mistral's "model with 32768 maximum context length".
var contextLimitPatterns = []*regexp.Regexp{
	regexp.MustCompile(`maximum context length is (\d+)`),
	regexp.MustCompile(`> (\d+) maximum`),
	regexp.MustCompile(`tokens allowed \((\d+)\)`),
	regexp.MustCompile(`(\d+) maximum context length`),
}

// ContextLimit returns the context window, in tokens, that a server's
// context-length error states, 0 when it states none.
func ContextLimit(detail string) int {
	for _, re := range contextLimitPatterns {
		if m := re.FindStringSubmatch(detail); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// mentionsUnknownModel reports whether a server's error message says the
// requested model does not exist ("model_not_found", "The model `x` does not
// exist", "model 'x' not found, try pulling it first", …).
func mentionsUnknownModel(detail string) bool {
	d := strings.ToLower(detail)
	if !strings.Contains(d, "model") {
		return false
	}
	for _, s := range []string{"not found", "not_found", "does not exist", "unknown model", "no such model", "invalid model"} {
		if strings.Contains(d, s) {
			return true
		}
	}
	return false
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func isDialFailure(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
}
