package acpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
)

// Prompt runs one turn, or one slash command, on the session and answers
// with its stop reason (see the package doc).
func (s *Server) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	ss, err := s.get(p.SessionId)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	text, err := promptText(p.Prompt)
	if err != nil {
		return acp.PromptResponse{}, s.reqError(err)
	}
	ctx = context.WithValue(ctx, promptKey{}, p.SessionId) // Ask asks this thread's editor
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return acp.PromptResponse{}, notFound(s.o.Lang.Sprintf("ACP session %s was replaced by a later session/load", p.SessionId))
	}
	send := func(chunk string) {
		if chunk != "" {
			s.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateAgentMessageText(chunk)})
		}
	}
	prev := ss.engine.SetOnTool(nil)
	ss.engine.SetOnTool(func(a conversation.ToolActivity) {
		for _, u := range toolUpdates(a) {
			s.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: u})
		}
		if prev != nil {
			prev(a)
		}
	})
	defer ss.engine.SetOnTool(prev)
	if command.IsCommand(text) {
		err = s.runCommand(ctx, ss, text, send)
	} else {
		_, err = ss.engine.Turn(ctx, text, send)
	}
	if merr := ss.mirror(s.o); merr != nil && err == nil && ctx.Err() == nil {
		// A turn that is not durable is never acknowledged as a turn.
		err = i18n.Errorf("the turn was not saved: %w; it is kept only in this ACP session's memory, and the next prompt tries the save again", merr)
	}
	if ctx.Err() != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	if err != nil {
		return acp.PromptResponse{}, s.reqError(err)
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// runCommand dispatches a slash command on this session's engine only; its
// output is streamed as agent text, in the server's language as the REPL
// prints it. There is no terminal to confirm on, so destructive verbs need
// --yes. An unknown command is not an error of the request: the REPL's
// line saying so is the reply.
func (s *Server) runCommand(ctx context.Context, ss *acpSession, line string, send func(string)) error {
	w := chunkWriter(send)
	env := &command.Env{Engine: ss.engine, Out: w, Err: w, Interactive: false, Config: s.o.Config, Lang: s.o.Lang}
	err := command.Dispatch(ctx, env, line)
	if replacesConversation(line) {
		ss.generation++
	}
	switch {
	case errors.Is(err, command.ErrQuit):
		return i18n.Errorf("%w: %s does nothing here; close the thread in the editor to end the session", command.ErrUsage, strings.Fields(line)[0])
	case errors.Is(err, command.ErrUnknownCommand):
		s.o.Lang.Fprintf(w, "error: %s\n", command.ErrorLineIn(s.o.Lang, err))
		return nil
	}
	return err
}

// chunkWriter sends each write as agent_message_chunks of at most
// ChunkBytes.
type chunkWriter func(string)

func (w chunkWriter) Write(p []byte) (int, error) {
	for _, c := range textChunks(string(p)) {
		w(c)
	}
	return len(p), nil
}

// promptText joins the prompt's blocks: text as it is, resource links as
// Markdown links, embedded text resources as their text. Other blocks
// (images, audio, binary resources) are refused: the initialize answer
// does not offer them.
func promptText(blocks []acp.ContentBlock) (string, error) {
	var parts []string
	for i, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.ResourceLink != nil:
			parts = append(parts, fmt.Sprintf("[%s](%s)", b.ResourceLink.Name, b.ResourceLink.Uri))
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			parts = append(parts, b.Resource.Resource.TextResourceContents.Text)
		default:
			return "", i18n.Errorf("%w: prompt block %d: only text and resource links are supported (promptCapabilities)", errInvalid, i)
		}
	}
	text := strings.Join(parts, "\n")
	if strings.TrimSpace(text) == "" {
		return "", i18n.Errorf("%w: the prompt holds no text", errInvalid)
	}
	return text, nil
}

// replacesConversation reports whether a slash command line may replace
// the live conversation or change its binding, so that the next mirror
// goes to a new name instead of overwriting the previous conversation's.
func replacesConversation(line string) bool {
	f := strings.Fields(line)
	switch {
	case len(f) == 0:
		return false
	case f[0] == "/newsession":
		return true
	case f[0] != "/session" || len(f) < 2:
		return false
	}
	switch f[1] {
	case "new", "load", "attach", "detach", "delete", "fork", "save", "clear", "rename":
		return true
	}
	return false
}

// toolUpdates are the session/update notifications that show one tool call
// the engine ran during a prompt: tool_call (its name and arguments) and
// tool_call_update (completed or failed, with the result the model got).
func toolUpdates(a conversation.ToolActivity) []acp.SessionUpdate {
	status := acp.ToolCallStatusCompleted
	if a.IsError {
		status = acp.ToolCallStatusFailed
	}
	id := acp.ToolCallId(a.Call.ID)
	return []acp.SessionUpdate{
		acp.StartToolCall(id, a.Call.Name, acp.WithStartKind(toolKind(a.Call.Name)),
			acp.WithStartStatus(acp.ToolCallStatusInProgress), acp.WithStartRawInput(rawArguments(a.Call.Arguments))),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(status),
			acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(shown(a.Content)))}),
			acp.WithUpdateRawOutput(shown(a.Content))),
	}
}

// toolKind is the ACP kind of a built-in tool (internal/tools), so editors
// can show reads, searches, edits and commands each their own way; other
// names are "other".
func toolKind(name string) acp.ToolKind {
	switch name {
	case "read_file":
		return acp.ToolKindRead
	case "list_dir", "search_files":
		return acp.ToolKindSearch
	case "write_file", "edit_file":
		return acp.ToolKindEdit
	case "run_command":
		return acp.ToolKindExecute
	}
	return acp.ToolKindOther
}
