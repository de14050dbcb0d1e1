package provider

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Retry is a request the SDK is about to send again after an attempt
// failed before any reply came.
type Retry struct {
	// Provider is the provider's name ("openai", "anthropic", …).
	Provider string
	// Status is the failed attempt's HTTP status (429, 500, 529, …); 0
	// when it got no response, Err then says why.
	Status int
	Err    error
	// Delay is the wait before the next attempt: the server's Retry-After
	// when it sent one, else the SDK's backoff. For an attempt that got no
	// response it is the longest the SDK's backoff waits.
	Delay time.Duration
	// Attempt is the number of the attempt about to be made (2 for the
	// first retry) out of Attempts, the retries allowed plus one.
	Attempt, Attempts int
}

type onRetryKey struct{}

// WithOnRetry returns ctx carrying fn: the providers call it, from the
// goroutine that called Chat, before each retry of a request made with
// the returned context.
func WithOnRetry(ctx context.Context, fn func(Retry)) context.Context {
	return context.WithValue(ctx, onRetryKey{}, fn)
}

// OnRetry returns the function WithOnRetry put in ctx, nil when none.
func OnRetry(ctx context.Context) func(Retry) {
	fn, _ := ctx.Value(onRetryKey{}).(func(Retry))
	return fn
}

// Longest waits the SDKs allow: a server's Retry-After above
// MaxRetryAfterOpenAI makes openai-go give up instead of waiting; the
// backoff of both SDKs is capped at maxBackoff.
const (
	MaxRetryAfterOpenAI = 2 * time.Minute
	maxBackoff          = 8 * time.Second
)

// RetryMiddleware is the SDK middleware (option.Middleware of openai-go
// and of anthropic-sdk-go) that makes the SDK's silent retries heard: it
// sees each attempt and, when the attempt failed in a way the SDK retries
// (no response; 408, 409, 429 or 5xx; or as the x-should-retry header
// says) and retries remain, tells the request context's OnRetry what is
// retried and when, before the SDK waits. The retries stay the SDK's; so
// that the wait said is the wait made, the middleware gives the failed
// response a Retry-After-Ms header with it: the server's own Retry-After
// (or Retry-After-Ms) when it sent one, else the SDK's backoff (0.5 s
// doubling per retry, capped at 8 s, less up to a quarter of jitter).
// retries is the SDK's MaxRetries; a server's wait above maxRetryAfter
// (0 for no limit) is left for the SDK to refuse, unannounced.
func RetryMiddleware(name string, retries int, maxRetryAfter time.Duration) func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	return func(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
		res, err := next(req)
		fn := OnRetry(req.Context())
		if fn == nil || req.Context().Err() != nil {
			return res, err
		}
		n, cerr := strconv.Atoi(req.Header.Get("X-Stainless-Retry-Count"))
		if cerr != nil || n >= retries {
			return res, err
		}
		r := Retry{Provider: name, Attempt: n + 2, Attempts: retries + 1}
		if res == nil {
			if err == nil || deterministic(err) {
				return res, err
			}
			r.Err, r.Delay = err, backoff(n)
			fn(r)
			return res, err
		}
		if !retried(res) {
			return res, err
		}
		d, ok := retryAfter(res.Header)
		if ok && maxRetryAfter > 0 && d > maxRetryAfter {
			return res, err
		}
		if !ok {
			d = backoff(n) - time.Duration(rand.Int64N(int64(backoff(n)/4)+1))
		}
		res.Header.Del("Retry-After")
		res.Header.Set("Retry-After-Ms", strconv.FormatInt(d.Milliseconds(), 10))
		r.Status, r.Delay = res.StatusCode, d.Truncate(time.Millisecond)
		fn(r)
		return res, err
	}
}

// deterministic reports whether err, or an error it wraps, is one
// openai-go marks as not worth retrying (a redirect to another origin, a
// request setup failure), which its retry loop ends at. The mark is a
// type of its internal package with an unexported method, which an
// interface of this package cannot name (Go qualifies an unexported
// method by its package), so it is known by the type's name.
func deterministic(err error) bool {
	for _, e := range errorTree(err) {
		t := reflect.TypeOf(e)
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Name() == "noRetryError" && strings.HasSuffix(t.PkgPath(), "/internal/requestconfig") {
			return true
		}
	}
	return false
}

// errorTree is err and every error it wraps, depth first.
func errorTree(err error) []error {
	if err == nil {
		return nil
	}
	out := []error{err}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		out = append(out, errorTree(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, errorTree(e)...)
		}
	}
	return out
}

// retried reports whether the SDKs retry a request answered with res.
func retried(res *http.Response) bool {
	switch res.Header.Get("x-should-retry") {
	case "true":
		return true
	case "false":
		return false
	}
	s := res.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// backoff is the SDKs' wait before retry n+1, without its jitter.
func backoff(n int) time.Duration {
	d := 0.5 * float64(time.Second) * math.Pow(2, float64(n))
	if d >= float64(maxBackoff) {
		return maxBackoff
	}
	return time.Duration(d)
}

// retryAfter is the wait h asks for, as the SDKs read it: Retry-After-Ms
// in milliseconds, else Retry-After in seconds or as an HTTP date; a wait
// in the past is none.
func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return time.Duration(min(ms, float64(math.MaxInt64/int64(time.Millisecond))) * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || math.IsNaN(s) {
			return 0, false
		}
		return time.Duration(min(s, float64(math.MaxInt64/int64(time.Second))) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}
