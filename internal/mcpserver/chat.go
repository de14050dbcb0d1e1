package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/session"
)

// ChatInput is the chat tool's input.
type ChatInput struct {
	// Prompt is sent as typed; a leading "/" is not a command here.
	Prompt string `json:"prompt" jsonschema:"the message to send to the model, as a person would type it"`
	// Session, when set, binds the conversation to that session first
	// (attach semantics).
	Session string `json:"session,omitempty" jsonschema:"continue this named session (loaded when it exists, created at this turn when not); omit to continue the current conversation"`
}

// ChatOutput is the chat tool's structured result.
type ChatOutput struct {
	// Reply is the assistant's reply text.
	Reply string `json:"reply"`
	// Session is where the conversation is kept: the bound session, else
	// its mirror mcp-<id>; "" when it is kept nowhere (mirror off).
	Session string `json:"session"`
	// Bound reports whether Session is a bound session (written through
	// every turn) rather than a mirror.
	Bound bool `json:"bound"`
	// Messages is the length of the live history after the turn.
	Messages int `json:"messages"`
	// Warning, set only on a result with IsError, says why the turn is
	// not durable (the reply arrived but could not be saved: a full disk,
	// a read-only store, a lock held past its timeout, a name the file
	// system refuses) and what keeps it; "" when the turn was saved.
	Warning string `json:"warning,omitempty"`
	// Notices are what the engine announced during the turn, one line
	// each: a newer version adopted from another window, a merge, a
	// conflict fork NAME.conflict-… that now holds this side, a repair.
	Notices []string `json:"notices,omitempty"`
}

func chatTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "chat",
		Title: "Chat",
		Description: "Send a prompt to chatcli's model and return the reply. The conversation continues across calls " +
			"and is kept in chatcli's session store: in the named session when `session` is given (the same session " +
			"the terminal REPL and `chatcli -p --session` use), else in a mirror session mcp-<id>.",
		OutputSchema: outputSchema[ChatOutput](),
	}
}

// chat runs one turn, sending progress notifications while it runs when
// the request asks for them (progress.go). A provider failure is a tool
// error (the prompt stays in the conversation, marked unanswered); so is a
// reply that arrived but could not be saved (notDurable): a surface never
// acknowledges a turn it did not make durable.
func (s *Server) chat(ctx context.Context, req *mcp.CallToolRequest, in ChatInput) (*mcp.CallToolResult, ChatOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if strings.TrimSpace(in.Prompt) == "" {
		return nil, ChatOutput{}, errors.New("chat: prompt is empty")
	}
	if in.Session != "" {
		if err := s.bind(in.Session); err != nil {
			return nil, ChatOutput{}, toolError(err)
		}
	}
	return s.turn(ctx, req, in.Prompt)
}

// turn runs prompt as one turn of the live conversation, for a caller
// holding s.mu, and builds chat's result; req's progress token, if any,
// gets progress notifications.
func (s *Server) turn(ctx context.Context, req *mcp.CallToolRequest, prompt string) (*mcp.CallToolResult, ChatOutput, error) {
	ctx, cancel := s.callContext(ctx)
	defer cancel()
	var notices []string
	prev := s.e.SetNotify(nil)
	s.e.SetNotify(func(line string) { notices = append(notices, line); prev(line) })
	defer s.e.SetNotify(prev)
	onDelta, stopProgress := startProgress(ctx, req)
	reply, err := s.e.Turn(ctx, prompt, onDelta)
	stopProgress()
	mirror, merr := s.mirrorNow()
	if merr != nil {
		s.o.Log(fmt.Sprintf("mcp: %v", merr))
	}
	if err != nil && reply.Content == "" && len(reply.ToolCalls) == 0 {
		return nil, ChatOutput{}, toolError(errors.Join(err, merr))
	}
	out := ChatOutput{Reply: reply.Content, Session: s.savedIn(), Bound: s.e.Bound() != "", Messages: len(s.e.History()), Notices: notices}
	if mirror != "" {
		out.Session = mirror
	}
	text := reply.Content
	for _, n := range notices {
		text += "\n\nnote: " + n
	}
	res := &mcp.CallToolResult{}
	if err = errors.Join(err, merr); err != nil {
		out.Session, out.Warning = "", s.notDurable(err)
		text = "error: " + out.Warning + "\n\n" + text
		res.IsError = true
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: text}}
	return res, out, nil
}

// notDurable is the tool error's line for a turn whose reply arrived but
// could not be written (err): why, and what keeps the conversation now.
func (s *Server) notDurable(err error) string {
	where := "the mirror is off, so nothing on disk holds it"
	switch {
	case s.e.Bound() != "":
		where = fmt.Sprintf("session %q on disk does not hold this turn", s.e.Bound())
	case s.mirror != "":
		where = fmt.Sprintf("mirror %q on disk does not hold this turn", s.mirror)
	case s.o.Mirror:
		where = "no session on disk holds it"
	}
	return fmt.Sprintf("the turn was not saved: %s. It is kept only in this server's memory (%d messages); %s. "+
		"The next turn and the server's exit try the save again; manage_session save NAME writes it elsewhere.",
		command.ErrorLine(err), len(s.e.History()), where)
}

// bind attaches the conversation to session name unless it is bound to it
// already (a turn then adopts what another surface wrote).
func (s *Server) bind(name string) error {
	n, err := session.NormalizeName(name)
	if err != nil {
		return err
	}
	if n == s.e.Bound() {
		return nil
	}
	autosaved, _, err := s.e.Attach(n)
	if err != nil {
		return err
	}
	if autosaved != "" {
		s.o.Log(s.o.Lang.Sprintf("the previous conversation was saved as %q", autosaved))
	}
	s.newConversation()
	return nil
}
