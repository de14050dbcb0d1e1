package anthropic

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"image"
	"image/jpeg"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

const (
	testKeyID  = "AKIDEXAMPLE"
	testSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
	testModel  = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
)

func newBedrockClient(t *testing.T, f *providertest.Bedrock, mod func(*BedrockConfig)) *Client {
	t.Helper()
	cfg := BedrockConfig{Model: testModel, Region: f.Region, AccessKeyID: f.AccessKeyID, SecretAccessKey: f.SecretAccessKey,
		SessionToken: f.SessionToken, Endpoint: f.URL, MaxRetries: -1}
	if mod != nil {
		mod(&cfg)
	}
	c, err := NewBedrock(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBedrockStreamsATurn: a chat turn goes out signed (SigV4, with the
// session token), to /model/{id}/invoke-with-response-stream, with
// anthropic_version and without model or stream in the body, and its
// AWS event-stream reply is read as it comes.
func TestBedrockStreamsATurn(t *testing.T) {
	f := providertest.NewBedrock(t, "eu-west-3", testKeyID, testSecret, "FQoGZXIvYXdzEXAMPLETOKEN", providertest.Reply{Text: "Bonjour, monde"})
	c := newBedrockClient(t, f, nil)
	var deltas []string
	resp, err := c.Chat(context.Background(), provider.Request{Messages: []message.Message{
		{Role: message.RoleSystem, Content: "be brief"}, {Role: message.RoleUser, Content: "hello"},
	}}, func(s string) { deltas = append(deltas, s) })
	if err != nil {
		t.Fatalf("%v (rejected: %q, refused: %q)", err, f.Rejected(), f.Refusals())
	}
	if resp.Message.Content != "Bonjour, monde" || len(deltas) < 2 || strings.Join(deltas, "") != "Bonjour, monde" {
		t.Errorf("reply %q in deltas %q", resp.Message.Content, deltas)
	}
	if resp.StopReason != "end_turn" || resp.Usage.InputTokens == 0 || resp.Usage.OutputTokens != 5 {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	if m := f.Models(); len(m) != 1 || m[0] != testModel {
		t.Errorf("models in the path: %q", m)
	}
	if c.Name() != BedrockName || c.Model() != testModel {
		t.Errorf("client names %s/%s", c.Name(), c.Model())
	}
}

// TestBedrockToolCallTurn: the offered tools go out, a streamed tool_use
// comes back as a call, and its result is accepted by the Messages rules
// on the next request.
func TestBedrockToolCallTurn(t *testing.T) {
	f := providertest.NewBedrock(t, "us-east-1", testKeyID, testSecret, "",
		providertest.Reply{ToolCalls: []message.ToolCall{{ID: "toolu_01", Name: "list_files", Arguments: `{"path":"."}`}}},
		providertest.Reply{Text: "two files"})
	c := newBedrockClient(t, f, nil)
	msgs := []message.Message{{Role: message.RoleUser, Content: "what is here?"}}
	resp, err := c.Chat(context.Background(), provider.Request{Messages: msgs, Tools: []provider.Tool{listTool}}, nil)
	if err != nil {
		t.Fatalf("%v (rejected: %q)", err, f.Rejected())
	}
	calls := resp.Message.ToolCalls
	if resp.StopReason != "tool_use" || len(calls) != 1 || calls[0].Name != "list_files" || calls[0].Arguments != `{"path":"."}` {
		t.Fatalf("reply %+v", resp)
	}
	msgs = append(msgs, resp.Message, message.Message{Role: message.RoleTool, ToolCallID: calls[0].ID, Content: "a.go b.go"})
	resp, err = c.Chat(context.Background(), provider.Request{Messages: msgs, Tools: []provider.Tool{listTool}}, nil)
	if err != nil || resp.Message.Content != "two files" {
		t.Fatalf("second turn: %v %+v (refused: %q)", err, resp, f.Refusals())
	}
	var req struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if json.Unmarshal(f.Body(0), &req); len(req.Tools) != 1 || req.Tools[0].Name != "list_files" {
		t.Errorf("tools sent: %s", f.Body(0))
	}
}

// TestBedrockNormalisesLikeAnthropic: a history the Messages API would
// refuse as stored (a foreign tool-call id, whitespace-only text beside a
// call, an image stored as image/jpg) reaches Bedrock fitted by the same
// normalisation step, and the stored history is left as it was.
func TestBedrockNormalisesLikeAnthropic(t *testing.T) {
	f := providertest.NewBedrock(t, "us-west-2", testKeyID, testSecret, "", providertest.Reply{Text: "ok"})
	c := newBedrockClient(t, f, nil)
	msgs := []message.Message{
		{Role: message.RoleUser, Content: "look", Images: []message.Image{{MediaType: "image/jpg", Data: jpegBase64(t)}}},
		{Role: message.RoleAssistant, Content: " \n", ToolCalls: []message.ToolCall{{ID: "functions.list_dir:0", Name: "list_dir", Arguments: "{}"}}},
		{Role: message.RoleTool, ToolCallID: "functions.list_dir:0", Content: "x"},
		{Role: message.RoleUser, Content: "and?"},
	}
	before, _ := json.Marshal(msgs)
	if _, err := c.Chat(context.Background(), provider.Request{Messages: msgs}, nil); err != nil {
		t.Fatalf("%v (refused: %q)", err, f.Refusals())
	}
	if after, _ := json.Marshal(msgs); string(after) != string(before) {
		t.Errorf("the stored history changed:\n%s\n%s", before, after)
	}
	if body := string(f.Body(0)); strings.Contains(body, "functions.list_dir:0") || strings.Contains(body, "image/jpg") {
		t.Errorf("sent unnormalised: %s", body)
	}
}

// TestBedrockContextLengthIsRecognised: Bedrock's ValidationException
// for an over-long prompt ({"message": "prompt is too long: …"}, the
// exception in x-amzn-ErrorType) and its older "Input is too long for
// requested model" are KindContextLength, with the window the message states.
func TestBedrockContextLengthIsRecognised(t *testing.T) {
	f := providertest.NewBedrock(t, "us-east-1", testKeyID, testSecret, "",
		providertest.Reply{Status: 400, ErrType: "invalid_request_error", ErrMessage: "Input is too long for requested model."})
	f.MaxPromptBytes = 400
	c := newBedrockClient(t, f, nil)
	_, err := c.Chat(context.Background(), userReq(strings.Repeat("long text ", 100)), nil)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength || pe.Provider != BedrockName || pe.Status != 400 ||
		!strings.Contains(pe.Detail, "prompt is too long") || provider.ContextLimit(pe.Detail) != 100 {
		t.Fatalf("over the window: %+v", pe)
	}
	_, err = c.Chat(context.Background(), userReq("short"), nil)
	if !errors.As(err, &pe) || pe.Kind != provider.KindContextLength || !strings.Contains(pe.Detail, "Input is too long") {
		t.Fatalf("older message: %+v", pe)
	}
}

// TestBedrockRefusesABadSignature: a wrong secret is refused by the fake
// (the signature is recomputed), and that is KindAuth.
func TestBedrockRefusesABadSignature(t *testing.T) {
	f := providertest.NewBedrock(t, "us-east-1", testKeyID, testSecret, "")
	c := newBedrockClient(t, f, func(cfg *BedrockConfig) { cfg.SecretAccessKey = "not-the-secret" })
	_, err := c.Chat(context.Background(), userReq("hi"), nil)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindAuth || !strings.Contains(pe.Detail, "signature we calculated does not match") {
		t.Fatalf("%+v", pe)
	}
	if f.Requests() != 0 {
		t.Errorf("the Messages rules saw a request Bedrock refused")
	}
	if _, err := newBedrockClient(t, f, nil).Chat(context.Background(), userReq("hi"), nil); err != nil {
		t.Fatalf("right secret: %v (%q)", err, f.Rejected())
	}
}

// TestNewBedrockNamesWhatIsMissing: model, Region and credentials are
// required, and a bad endpoint is refused before any request.
func TestNewBedrockNamesWhatIsMissing(t *testing.T) {
	for want, cfg := range map[string]BedrockConfig{
		"no model":           {Region: "r", AccessKeyID: "a", SecretAccessKey: "s"},
		"no AWS Region":      {Model: "m", AccessKeyID: "a", SecretAccessKey: "s"},
		"no AWS credentials": {Model: "m", Region: "r", AccessKeyID: "a"},
		"not an http(s) URL": {Model: "m", Region: "r", BearerToken: "t", Endpoint: "ftp://x"},
	} {
		if _, err := NewBedrock(cfg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
}

// jpegBase64 is a 2x2 JPEG in base64.
func jpegBase64(t *testing.T) string {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2)), nil); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestBedrockStreamExceptionsAreClassified: an exception message in the
// event stream fails the call (nothing partial is a reply), classified by
// the exception's name.
func TestBedrockStreamExceptionsAreClassified(t *testing.T) {
	for exception, want := range map[string]provider.Kind{
		"throttlingException":       provider.KindRateLimit,
		"modelStreamErrorException": provider.KindServer,
		"modelTimeoutException":     provider.KindTimeout,
		"validationException":       provider.KindBadRequest,
	} {
		f := providertest.NewBedrock(t, "us-east-1", testKeyID, testSecret, "", providertest.Reply{Text: "never whole"})
		f.Exception, f.ExceptionMessage = exception, "Too many tokens, please wait before trying again."
		_, err := newBedrockClient(t, f, nil).Chat(context.Background(), userReq("hi"), nil)
		var pe *provider.Error
		if !errors.As(err, &pe) || pe.Kind != want || pe.Provider != BedrockName || !strings.Contains(pe.Detail, "Too many tokens") {
			t.Errorf("%s: %+v", exception, pe)
		}
	}
}

// TestBedrockAPIKeyIsABearerToken: with a Bedrock API key the request
// carries it as a bearer token, and a wrong one is KindAuth.
func TestBedrockAPIKeyIsABearerToken(t *testing.T) {
	f := providertest.NewBedrock(t, "us-east-1", "", "", "", providertest.Reply{Text: "keyed"})
	f.BearerToken = "ABSKexamplekey"
	withKey := func(key string) func(*BedrockConfig) { return func(c *BedrockConfig) { c.BearerToken = key } }
	resp, err := newBedrockClient(t, f, withKey("ABSKexamplekey")).Chat(context.Background(), userReq("hi"), nil)
	if err != nil || resp.Message.Content != "keyed" {
		t.Fatalf("%v %+v (%q)", err, resp, f.Rejected())
	}
	_, err = newBedrockClient(t, f, withKey("ABSKwrong")).Chat(context.Background(), userReq("hi"), nil)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Kind != provider.KindAuth {
		t.Fatalf("wrong key: %+v", pe)
	}
}
