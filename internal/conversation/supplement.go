package conversation

import (
	"encoding/json"

	"github.com/chatcli/chatcli/internal/message"
)

// Supplement returns the system messages sent before the history of one
// request and never stored in it: bootstrap files, global memory and the
// attached contexts (cmd/chatcli builds it from internal/bootstrap,
// internal/memory and internal/contexts). attachments is the conversation's
// `attachments` member as the session file holds it (nil when none);
// prompt is the text of the latest user message, which retrieval ranks
// against. It reports its own notices; what it returns is sent as is.
type Supplement func(attachments json.RawMessage, prompt string) []message.Message

// withSupplement returns sent (message.Request of the history, shared with
// the request cache) preceded by the supplement's messages, in a new slice
// so that the cache keeps only the history's conversion.
func (e *Engine) withSupplement(sent []message.Message) []message.Message {
	if e.supplement == nil {
		return sent
	}
	prompt := ""
	if i := latestUser(e.history); i >= 0 {
		prompt = e.history[i].Content
	}
	extra := e.supplement(e.sess.Attachments, prompt)
	if len(extra) == 0 {
		return sent
	}
	out := make([]message.Message, 0, len(extra)+len(sent))
	return append(append(out, extra...), sent...)
}

// Attachments is the conversation's `attachments` member (the records of
// /context attach, ChatCLI's session format), nil when there is none. It
// is kept by save, load, resume and fork like the session's other members.
func (e *Engine) Attachments() json.RawMessage { return e.sess.Attachments }

// SetAttachments replaces the conversation's `attachments` member with
// raw (nil removes it). A bound session's file is written at once (the
// journal does not hold attachments); an unbound conversation keeps them
// for its next save or autosave. The error is the write's.
func (e *Engine) SetAttachments(raw json.RawMessage) error {
	e.sess.Attachments = raw
	if e.bound == "" {
		e.dirty = e.dirty || len(e.history) > 0
		return nil
	}
	e.dirty = true
	return e.snapshot()
}
