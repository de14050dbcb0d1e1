package main

import (
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider"
)

// oneShotReport writes what `chatcli -p` did as JSON on standard output:
// with --json one object once the turn is over, with --stream-json one
// event per line as the turn goes (JSON Lines). The shapes are the JSON
// Schemas docs/schema/oneshot.schema.json and
// docs/schema/oneshot-stream.schema.json; a test validates the output
// against them. Notices and tool activity go into the report instead of
// standard error; the error, when there is one, is in the report and on
// standard error, and the exit status is the same as without the flag.
type oneShotReport struct {
	stream bool
	mu     sync.Mutex
	enc    *json.Encoder

	reply   strings.Builder
	tools   []jsonToolCall
	notices []string
}

// jsonToolCall is one tool call and its result.
type jsonToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // the model's text, a JSON object as a string
	Result    string `json:"result"`
	IsError   bool   `json:"is_error"`
}

// jsonUsage is provider.Usage summed over the turn's requests, in tokens.
type jsonUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// jsonError is a failed turn: the line chatcli prints and the exit status.
type jsonError struct {
	Message  string `json:"message"`
	ExitCode int    `json:"exit_code"`
}

// jsonOutcome is what both forms end with.
type jsonOutcome struct {
	Reply    string     `json:"reply"`
	Session  string     `json:"session"` // "" when nothing was saved
	Provider string     `json:"provider"`
	Model    string     `json:"model"`
	Mode     string     `json:"mode"`
	Usage    jsonUsage  `json:"usage"`
	Error    *jsonError `json:"error,omitempty"`
}

// newOneShotReport returns the report writing to w, or nil when neither
// flag asks for one.
func newOneShotReport(o oneShotOptions, w io.Writer) *oneShotReport {
	if !o.JSON && !o.StreamJSON {
		return nil
	}
	return &oneShotReport{stream: o.StreamJSON, enc: json.NewEncoder(w)}
}

// attach makes the report the receiver of e's notices and tool activity.
func (r *oneShotReport) attach(e *conversation.Engine) {
	e.SetNotify(r.notice)
	e.SetOnTool(r.tool)
}

// The events of the stream other than done, "type" first.
type (
	textEvent struct {
		Type string `json:"type"` // "delta" or "notice"
		Text string `json:"text"`
	}
	toolCallEvent struct {
		Type      string `json:"type"` // "tool_call"
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	toolResultEvent struct {
		Type    string `json:"type"` // "tool_result"
		ID      string `json:"id"`
		Name    string `json:"name"`
		Content string `json:"content"`
		IsError bool   `json:"is_error"`
	}
)

// delta receives the reply's text as it streams.
func (r *oneShotReport) delta(s string) {
	if s == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reply.WriteString(s)
	if r.stream {
		_ = r.enc.Encode(textEvent{"delta", s})
	}
}

func (r *oneShotReport) notice(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, s)
	if r.stream {
		_ = r.enc.Encode(textEvent{"notice", s})
	}
}

func (r *oneShotReport) tool(a conversation.ToolActivity) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := jsonToolCall{ID: a.Call.ID, Name: a.Call.Name, Arguments: a.Call.Arguments, Result: a.Content, IsError: a.IsError}
	r.tools = append(r.tools, t)
	if r.stream {
		_ = r.enc.Encode(toolCallEvent{"tool_call", t.ID, t.Name, t.Arguments})
		_ = r.enc.Encode(toolResultEvent{"tool_result", t.ID, t.Name, t.Result, t.IsError})
	}
}

// finish writes the outcome: the done event, or the whole object. reply
// is the turn's final reply (its text is taken from the deltas when it
// streamed none, as in agent mode), session the name the turn was saved
// under, err the turn's error.
func (r *oneShotReport) finish(e *conversation.Engine, reply, session string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if reply == "" {
		reply = r.reply.String()
	}
	p := e.Provider()
	out := jsonOutcome{Reply: reply, Session: session, Provider: p.Name(), Model: p.Model(), Mode: e.Mode(), Usage: usageOf(e.Usage())}
	if err != nil {
		out.Error = &jsonError{Message: command.ErrorLine(err), ExitCode: errorClass(err)}
	}
	if r.stream {
		_ = r.enc.Encode(struct {
			Type string `json:"type"`
			jsonOutcome
		}{"done", out})
		return
	}
	_ = r.enc.Encode(struct {
		jsonOutcome
		ToolCalls []jsonToolCall `json:"tool_calls"`
		Notices   []string       `json:"notices"`
	}{out, orEmpty(r.tools), orEmpty(r.notices)})
}

func usageOf(u provider.Usage) jsonUsage { return jsonUsage{u.InputTokens, u.OutputTokens} }

// orEmpty is s, or an empty slice for nil (written [] rather than null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
