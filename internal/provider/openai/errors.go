package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/chatcli/chatcli/internal/provider"
)

// maxErrorBodyBytes caps how much of an error response is read.
const maxErrorBodyBytes = 64 << 10

// classify turns any failure of a Chat call into a *provider.Error.
//
// The SDK reports an HTTP error status as *openai.Error (StatusCode, and
// Message from the body's {"error":{"message":…}}); res, the last response
// received, supplies the status and body when the body had another shape
// (Ollama's {"error":"…"}, Gemini's [{"error":{…}}], a proxy's plain text).
// An {"error":…} event inside the stream arrives as *ssestream.StreamError
// and is classified by its type or code. When ctx has ended, its error is
// what happened, whatever the transport made of it (provider.ContextError).
// name is the provider the error is reported for.
func classify(ctx context.Context, name string, res *http.Response, err error) *provider.Error {
	if e := provider.ContextError(name, ctx, err); e != nil {
		return e
	}
	var serr *ssestream.StreamError
	if errors.As(err, &serr) {
		var ev struct {
			Error struct {
				Type string `json:"type"`
				Code any    `json:"code"`
			} `json:"error"`
		}
		_ = json.Unmarshal(serr.Event.Data, &ev)
		detail := provider.ErrorDetail(serr.Event.Data)
		e := provider.Classify(name, 0, detail, err)
		typ := ev.Error.Type
		if code, ok := ev.Error.Code.(string); ok {
			typ += " " + code
		}
		e.Kind = provider.KindForErrorType(typ, detail)
		return e
	}
	status, detail := 0, ""
	var aerr *openai.Error
	if errors.As(err, &aerr) {
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
	return provider.Classify(name, status, detail, err)
}
