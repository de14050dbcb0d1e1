package providertest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// BedrockVersion is the one anthropic_version Amazon Bedrock accepts in a
// Claude Messages body ("The value must be bedrock-2023-05-31", Bedrock
// User Guide, model-parameters-anthropic-claude-messages-request-response).
const BedrockVersion = "bedrock-2023-05-31"

// Bedrock is a strict fake of Amazon Bedrock's InvokeModelWithResponseStream
// for Claude models, in front of the strict Messages fake (NewAnthropic):
// URL is its endpoint, and the embedded Server is the Messages fake that
// applies the Messages API's rules to each request Bedrock accepted (its
// Body, Refusals, MaxPromptBytes and scripted replies).
type Bedrock struct {
	*Server
	// URL is the Bedrock endpoint to give the client.
	URL string
	// Region, AccessKeyID and SecretAccessKey are what requests must be
	// signed with; SessionToken, when set, must come as
	// X-Amz-Security-Token.
	Region, AccessKeyID, SecretAccessKey, SessionToken string
	// BearerToken, when set, is an Amazon Bedrock API key: requests must
	// carry "Authorization: Bearer <key>" instead of a signature (Bedrock
	// User Guide, "Use an Amazon Bedrock API key").
	BearerToken string
	// Exception and ExceptionMessage, when set, end every accepted stream
	// after its first event with that exception message (e.g.
	// "throttlingException"), as Bedrock reports a failure mid-stream.
	Exception, ExceptionMessage string

	mu       sync.Mutex
	models   []string
	rejected []string
}

// NewBedrock starts the fake for credentials signed in region; requests
// must be signed with accessKeyID and secret (sessionToken may be "").
func NewBedrock(t testing.TB, region, accessKeyID, secret, sessionToken string, replies ...Reply) *Bedrock {
	t.Helper()
	b := &Bedrock{Server: NewAnthropic(t, replies...), Region: region, AccessKeyID: accessKeyID, SecretAccessKey: secret, SessionToken: sessionToken}
	front := httptest.NewServer(http.HandlerFunc(b.serve))
	t.Cleanup(front.Close)
	b.URL = front.URL
	return b
}

// Models are the model ids of the requests' paths, in order.
func (b *Bedrock) Models() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.models...)
}

// Rejected are the messages of the requests Bedrock itself refused (path,
// signature, body), before the Messages rules.
func (b *Bedrock) Rejected() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.rejected...)
}

// BedrockError writes an error response the way Bedrock's REST JSON
// protocol does: the exception's name in x-amzn-ErrorType, the body
// {"message": …} (Bedrock API Reference, Common Errors; InvokeModel
// errors: ValidationException 400, AccessDeniedException 403,
// ResourceNotFoundException 404, ThrottlingException 429, …).
func BedrockError(w http.ResponseWriter, status int, exception, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("x-amzn-ErrorType", exception+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	w.Header().Set("x-amzn-RequestId", "fake-request-id")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

func (b *Bedrock) reject(w http.ResponseWriter, status int, exception, msg string) {
	b.mu.Lock()
	b.rejected = append(b.rejected, msg)
	b.mu.Unlock()
	BedrockError(w, status, exception, msg)
}

// serve checks what Bedrock checks, then forwards the request to the
// Messages fake and re-encodes its reply as Bedrock's.
func (b *Bedrock) serve(w http.ResponseWriter, r *http.Request) {
	// POST /model/{modelId}/invoke-with-response-stream (API Reference,
	// InvokeModelWithResponseStream, "Request Syntax"); the model id is one
	// escaped path segment (ids hold ":", inference profile ARNs "/").
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/model/")
	rawModel, op, ok2 := strings.Cut(rest, "/")
	model, err := url.PathUnescape(rawModel)
	if r.Method != http.MethodPost || !ok || !ok2 || op != "invoke-with-response-stream" || err != nil || model == "" {
		b.reject(w, http.StatusNotFound, "UnknownOperationException", "unknown operation "+r.Method+" "+r.URL.EscapedPath())
		return
	}
	body, _ := io.ReadAll(r.Body)
	if status, exception, msg := b.checkSignature(r, body); status != 0 {
		b.reject(w, status, exception, msg)
		return
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		b.reject(w, http.StatusBadRequest, "ValidationException", "Malformed input request, please reformat your input and try again.")
		return
	}
	// The model travels in the path and the stream in the operation: the
	// body's members are the model's parameters, anthropic_version first
	// among them (its documented value, BedrockVersion).
	var version string
	_ = json.Unmarshal(fields["anthropic_version"], &version)
	if version != BedrockVersion {
		b.reject(w, http.StatusBadRequest, "ValidationException", fmt.Sprintf("invalid anthropic_version %q: expected %s", version, BedrockVersion))
		return
	}
	for _, k := range []string{"model", "stream"} {
		if _, ok := fields[k]; ok {
			b.reject(w, http.StatusBadRequest, "ValidationException", fmt.Sprintf("Malformed input request: #: extraneous key [%s] is not permitted, please reformat your input and try again.", k))
			return
		}
	}
	b.mu.Lock()
	b.models = append(b.models, model)
	b.mu.Unlock()
	delete(fields, "anthropic_version")
	fields["model"], _ = json.Marshal(model)
	fields["stream"] = json.RawMessage("true")
	inner, _ := json.Marshal(fields)
	res, err := http.Post(b.Server.URL+"/v1/messages", "application/json", bytes.NewReader(inner))
	if err != nil {
		BedrockError(w, http.StatusInternalServerError, "InternalServerException", err.Error())
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.relayError(w, res)
		return
	}
	relayStream(w, res.Body, b.Exception, b.ExceptionMessage)
}

// relayError turns a Messages error into Bedrock's: a context-length or
// other invalid request is a ValidationException carrying the model's
// message (Bedrock passes Claude's "prompt is too long: N tokens > M
// maximum" on), a 429 a ThrottlingException; a Retry-After header is
// kept.
func (b *Bedrock) relayError(w http.ResponseWriter, res *http.Response) {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	_ = json.NewDecoder(res.Body).Decode(&e)
	exception := map[int]string{400: "ValidationException", 401: "AccessDeniedException", 403: "AccessDeniedException",
		404: "ResourceNotFoundException", 429: "ThrottlingException", 503: "ServiceUnavailableException"}[res.StatusCode]
	if exception == "" {
		exception = "InternalServerException"
	}
	if ra := res.Header.Get("Retry-After"); ra != "" {
		w.Header().Set("Retry-After", ra)
	}
	BedrockError(w, res.StatusCode, exception, e.Error.Message)
}

// relayStream re-encodes the Messages fake's server-sent events as the AWS
// event stream of InvokeModelWithResponseStream
// (application/vnd.amazon.eventstream): one message per event, headers
// :event-type "chunk", :content-type "application/json", :message-type
// "event", the payload {"bytes": base64 of the event's JSON}. An error
// event becomes an exception message (:message-type "exception",
// :exception-type e.g. "throttlingException") with {"message": …}; so
// does exception, when set, after the first event.
func relayStream(w http.ResponseWriter, sse io.Reader, exception, exceptionMsg string) {
	w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
	w.Header().Set("x-amzn-RequestId", "fake-request-id")
	enc := eventstream.NewEncoder()
	sc := bufio.NewScanner(sse)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type  string
			Error struct{ Type, Message string }
		}
		_ = json.Unmarshal([]byte(data), &ev)
		var msg eventstream.Message
		if ev.Type == "error" {
			msg = exceptionMessage(bedrockException(ev.Error.Type), ev.Error.Message)
		} else {
			payload, _ := json.Marshal(map[string]string{"bytes": base64.StdEncoding.EncodeToString([]byte(data)), "p": "abcdefghij"})
			msg = eventstream.Message{Payload: payload}
			msg.Headers.Set(":event-type", eventstream.StringValue("chunk"))
			msg.Headers.Set(":content-type", eventstream.StringValue("application/json"))
			msg.Headers.Set(":message-type", eventstream.StringValue("event"))
		}
		if enc.Encode(w, msg) != nil {
			return
		}
		if exception != "" {
			_ = enc.Encode(w, exceptionMessage(exception, exceptionMsg))
			return
		}
		w.(http.Flusher).Flush()
	}
}

// exceptionMessage is an event-stream exception message.
func exceptionMessage(exception, text string) eventstream.Message {
	payload, _ := json.Marshal(map[string]string{"message": text})
	msg := eventstream.Message{Payload: payload}
	msg.Headers.Set(":message-type", eventstream.StringValue("exception"))
	msg.Headers.Set(":exception-type", eventstream.StringValue(exception))
	msg.Headers.Set(":content-type", eventstream.StringValue("application/json"))
	return msg
}

// bedrockException names, as Bedrock's stream does, the exception for a
// Messages error type.
func bedrockException(typ string) string {
	switch typ {
	case "rate_limit_error":
		return "throttlingException"
	case "overloaded_error":
		return "serviceUnavailableException"
	case "invalid_request_error":
		return "validationException"
	}
	return "modelStreamErrorException"
}
