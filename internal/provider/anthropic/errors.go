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

// classify turns any failure of a Chat call into a *provider.Error named
// name (the client's provider name).
//
// The SDK reports an HTTP error status as *anthropic.Error (StatusCode, and
// Message from the body's {"type":"error","error":{"type":…,"message":…}});
// res, the last response received, supplies the status and body when the
// body had another shape. An "event: error" inside a stream arrives as an
// *anthropic.Error too, but with the 200 status of the stream: it is
// classified by its error type (overloaded_error, rate_limit_error, …).
// When ctx has ended, its error is what happened, whatever the transport
// made of it (provider.ContextError).
func classify(ctx context.Context, name string, res *http.Response, err error) *provider.Error {
	if e := provider.ContextError(name, ctx, err); e != nil {
		return e
	}
	status, detail := 0, ""
	var aerr *anthropic.Error
	if errors.As(err, &aerr) {
		if aerr.StatusCode < 400 {
			e := provider.Classify(name, 0, aerr.Message, err)
			e.Kind = provider.KindForErrorType(string(aerr.Type()), aerr.Message)
			return e
		}
		status, detail = aerr.StatusCode, aerr.Message
		if detail == "" {
			// Amazon Bedrock's error body is {"message": "…"} (its REST
			// JSON protocol), with the exception's name in the
			// x-amzn-ErrorType header, not the Messages API's shape.
			detail = provider.ErrorDetail([]byte(aerr.RawJSON()))
		}
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
	return provider.Classify(name, status, detail, err)
}
