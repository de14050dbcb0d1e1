package acpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	acp "github.com/coder/acp-go-sdk"
)

// promptKey is the context key under which Prompt stores its session id,
// so Ask knows which editor thread to ask.
type promptKey struct{}

// The option ids Ask offers, and the answers they stand for.
const (
	optionAllowOnce   acp.PermissionOptionId = "allow_once"
	optionAllowAlways acp.PermissionOptionId = "allow_always"
	optionReject      acp.PermissionOptionId = "reject_once"
)

// errNoPrompt is Ask's error outside a session/prompt.
var errNoPrompt = errors.New("refused: no editor thread to ask (not inside a session/prompt)")

// permissionSeq numbers the tool call ids of permission requests.
var permissionSeq atomic.Int64

// Ask asks the editor whose session/prompt ctx belongs to whether a tool
// may act, by session/request_permission (ACP v1, "Requesting
// Permission"). question is the terminal's wording in the server's
// language, "Allow write a.go (3 B, new file)? [y]es / [n]o / [a]lways for
// this session " ("Permitir write a.go (3 B, new file)? [y] sim / …"); its
// part before "? [y]" becomes the tool call's title. The options are
// allow_once, allow_always and reject_once, named in the server's
// language; the answer is "y", "a" or "n" (also "n" when the editor
// answers cancelled), the answers repl.Permit.Ask reads from a terminal.
// Errors: errNoPrompt outside a prompt, the request's error (ctx ended,
// connection closed, client refused).
func (s *Server) Ask(ctx context.Context, question string) (string, error) {
	id, ok := ctx.Value(promptKey{}).(acp.SessionId)
	if !ok || s.conn == nil {
		return "", errNoPrompt
	}
	title, _, _ := strings.Cut(question, "? [y]")
	title = strings.TrimSpace(title)
	resp, err := s.conn.RequestPermission(ctx, acp.RequestPermissionRequest{
		SessionId: id,
		ToolCall: acp.ToolCallUpdate{
			ToolCallId: acp.ToolCallId(fmt.Sprintf("permission-%d", permissionSeq.Add(1))),
			Title:      &title,
		},
		Options: []acp.PermissionOption{
			{OptionId: optionAllowOnce, Name: s.o.Lang.Sprintf("Allow"), Kind: acp.PermissionOptionKindAllowOnce},
			{OptionId: optionAllowAlways, Name: s.o.Lang.Sprintf("Always allow for this session"), Kind: acp.PermissionOptionKindAllowAlways},
			{OptionId: optionReject, Name: s.o.Lang.Sprintf("Reject"), Kind: acp.PermissionOptionKindRejectOnce},
		},
	})
	if err != nil {
		return "", fmt.Errorf("asking the editor for permission: %w", err)
	}
	if sel := resp.Outcome.Selected; sel != nil {
		switch sel.OptionId {
		case optionAllowOnce:
			return "y", nil
		case optionAllowAlways:
			return "a", nil
		}
	}
	return "n", nil
}
