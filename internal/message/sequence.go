package message

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSequence is wrapped by every error Validate returns.
var ErrSequence = errors.New("message: invalid sequence")

// The Kind of each Fix that Repair makes; also stored in Meta.Repair of the
// message the fix created or changed.
const (
	// RepairInterrupted: a tool call had no result; a tool message marked
	// interrupted was inserted after the call's group.
	RepairInterrupted = "interrupted_tool_call"
	// RepairOrphanResult: a tool message had no matching call (or was a
	// second result for one); it became a user message quoting it.
	RepairOrphanResult = "orphan_tool_result"
	// RepairEmptyAssistant: an assistant message without content or tool
	// calls was removed.
	RepairEmptyAssistant = "empty_assistant"
)

// InterruptedResult is the content of a tool message inserted by Repair for
// a tool call that never got its result.
const InterruptedResult = "[interrupted: this tool call was cut off before it returned a result]"

// Fix describes one change Repair made. Index is the position in the
// repaired history of the message concerned (for a removal, the position the
// message had in the input).
type Fix struct {
	Kind   string
	Index  int
	CallID string
}

// String is a one-line description a person can read.
func (f Fix) String() string {
	switch f.Kind {
	case RepairInterrupted:
		return fmt.Sprintf("tool call %q had no result; marked it interrupted (message #%d)", f.CallID, f.Index+1)
	case RepairOrphanResult:
		return fmt.Sprintf("tool result %q had no matching call; kept it as a note (message #%d)", f.CallID, f.Index+1)
	case RepairEmptyAssistant:
		return fmt.Sprintf("removed an empty assistant message (was #%d)", f.Index+1)
	}
	return f.Kind
}

// Validate reports the first violation of the sequence rules in package doc,
// wrapped around ErrSequence with the position involved, or nil.
func Validate(h []Message) error {
	pending := map[string]bool{} // calls of the current assistant turn without result
	var order []string
	flush := func(at int) error {
		for _, id := range order {
			if pending[id] {
				return fmt.Errorf("%w: tool call %q (before message #%d) has no result", ErrSequence, id, at+1)
			}
		}
		return nil
	}
	answered := map[string]bool{}
	for i, m := range h {
		switch m.Role {
		case RoleAssistant:
			if err := flush(i); err != nil {
				return err
			}
			pending, order, answered = map[string]bool{}, nil, map[string]bool{}
			if m.Content == "" && len(m.ToolCalls) == 0 {
				return fmt.Errorf("%w: message #%d is an empty assistant message", ErrSequence, i+1)
			}
			for _, c := range m.ToolCalls {
				pending[c.ID] = true
				order = append(order, c.ID)
			}
		case RoleTool:
			if !pending[m.ToolCallID] {
				if answered[m.ToolCallID] {
					return fmt.Errorf("%w: message #%d is a second result for tool call %q", ErrSequence, i+1, m.ToolCallID)
				}
				return fmt.Errorf("%w: message #%d is a result for tool call %q that has no call", ErrSequence, i+1, m.ToolCallID)
			}
			pending[m.ToolCallID] = false
			answered[m.ToolCallID] = true
		case RoleUser, RoleSystem:
			if err := flush(i); err != nil {
				return err
			}
			pending, order = map[string]bool{}, nil
		default:
			return fmt.Errorf("%w: message #%d has unknown role %q", ErrSequence, i+1, m.Role)
		}
	}
	return flush(len(h))
}

// Repair returns a copy of h that passes Validate, and the fixes it made, in
// order. It never reorders messages and never drops text: a result without
// its call becomes a user note quoting it; a missing result becomes a tool
// message with InterruptedResult placed right after the call's group; an
// empty assistant message (nothing to keep) is removed. A history that
// already passes is returned unchanged with no fixes. Unknown roles are left
// alone (Validate still reports them).
func Repair(h []Message) ([]Message, []Fix) {
	out := make([]Message, 0, len(h)+1)
	var fixes []Fix
	var pending []string // calls of the open assistant turn without result, in order
	open := map[string]bool{}
	closeGroup := func() {
		for _, id := range pending {
			if open[id] {
				out = append(out, Message{Role: RoleTool, ToolCallID: id, Content: InterruptedResult,
					Meta: &Meta{Repair: RepairInterrupted}})
				fixes = append(fixes, Fix{Kind: RepairInterrupted, Index: len(out) - 1, CallID: id})
			}
		}
		pending, open = nil, map[string]bool{}
	}
	for i, m := range h {
		switch m.Role {
		case RoleAssistant:
			closeGroup()
			if m.Content == "" && len(m.ToolCalls) == 0 {
				fixes = append(fixes, Fix{Kind: RepairEmptyAssistant, Index: i})
				continue
			}
			for _, c := range m.ToolCalls {
				pending = append(pending, c.ID)
				open[c.ID] = true
			}
		case RoleTool:
			if !open[m.ToolCallID] {
				note := Message{Role: RoleUser,
					Content: fmt.Sprintf("[tool result %q without its call]\n%s", m.ToolCallID, m.Content),
					Meta:    withRepair(m.Meta, RepairOrphanResult)}
				out = append(out, note)
				fixes = append(fixes, Fix{Kind: RepairOrphanResult, Index: len(out) - 1, CallID: m.ToolCallID})
				continue
			}
			open[m.ToolCallID] = false
		case RoleUser, RoleSystem:
			closeGroup()
		}
		out = append(out, m)
	}
	closeGroup()
	if len(fixes) == 0 {
		return h, nil
	}
	return out, fixes
}

func withRepair(m *Meta, kind string) *Meta {
	c := Meta{}
	if m != nil {
		c = *m
	}
	c.Repair = kind
	return &c
}

// Request returns the messages to send to a provider for history h: Meta is
// dropped and consecutive user messages are merged into one, their texts
// joined by a blank line, so no request holds two user messages in a row. h
// is not modified.
func Request(h []Message) []Message {
	out := make([]Message, 0, len(h))
	for _, m := range h {
		m.Meta, m.Extra = nil, nil
		if n := len(out); n > 0 && m.Role == RoleUser && out[n-1].Role == RoleUser && len(m.Images) == 0 && len(out[n-1].Images) == 0 {
			out[n-1].Content = strings.TrimRight(out[n-1].Content, "\n") + "\n\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}
