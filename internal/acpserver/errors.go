package acpserver

import (
	"errors"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/session"
)

// JSON-RPC error codes used here (JSON-RPC 2.0 §5.1; -32002 is ACP's
// "resource not found").
const (
	codeInvalidParams    = -32602
	codeInternal         = -32603
	codeResourceNotFound = -32002
)

// reqError maps err to a JSON-RPC error whose message and data.reason are
// the line a person can act on, in the server's language
// (command.ErrorLineIn). An *acp.RequestError passes through unchanged.
func (s *Server) reqError(err error) error {
	var re *acp.RequestError
	if errors.As(err, &re) {
		return re
	}
	code := codeInternal
	switch {
	case errors.Is(err, session.ErrNotFound):
		code = codeResourceNotFound
	case errors.Is(err, errInvalid), errors.Is(err, command.ErrUsage), errors.Is(err, session.ErrInvalidName),
		errors.Is(err, conversation.ErrReservedName), errors.Is(err, session.ErrExists):
		code = codeInvalidParams
	}
	line := command.ErrorLineIn(s.o.Lang, err, errInvalid)
	return &acp.RequestError{Code: code, Message: line, Data: map[string]any{"reason": line}}
}

// notFound is a resource-not-found error with reason.
func notFound(reason string) error {
	return &acp.RequestError{Code: codeResourceNotFound, Message: reason, Data: map[string]any{"reason": reason}}
}
