package anthropic

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/chatcli/chatcli/internal/provider"
)

// maxErrorBodyBytes caps how much of an error response is read.
const maxErrorBodyBytes = 64 << 10

// classify turns any failure of a Chat call into a *provider.Error.
//
// The SDK reports an HTTP error status as *anthropic.Error (StatusCode, and
// Message from the body's {"type":"error","error":{"type":…,"message":…}});
// res, the last response received, supplies the status and body when the
// body had another shape. An "event: error" inside a stream arrives as an
// *anthropic.Error too, but with the 200 status of the stream: it is
// classified by its error type (overloaded_error, rate_limit_error, …).
// When ctx has ended, its error is what happened, whatever the transport
// made of it (provider.ContextError).
func classify(ctx context.Context, res *http.Response, err error) *provider.Error {
	if e := provider.ContextError(Name, ctx, err); e != nil {
		return e
	}
	status, detail := 0, ""
	var aerr *anthropic.Error
	if errors.As(err, &aerr) {
		if aerr.StatusCode < 400 {
			e := provider.Classify(Name, 0, aerr.Message, err)
			e.Kind = provider.KindForErrorType(string(aerr.Type()), aerr.Message)
			return e
		}
		status, detail = aerr.StatusCode, aerr.Message
	}
	if res != nil && res.StatusCode >= 400 {
		status = res.StatusCode
		if detail == "" && res.Body != nil {
			body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBodyBytes))
			detail = provider.ErrorDetail(body)
		}
		if detail == "" {
			detail = http.StatusText(status)
		}
	}
	return provider.Classify(Name, status, detail, err)
}
