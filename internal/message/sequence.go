package message

import (
	"errors"
	"fmt"
	"slices"
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
	// RepairToolCallID: a duplicate or empty tool-call id was renamed, in
	// the call and in its result.
	RepairToolCallID = "tool_call_id"
	// RepairUnknownRole: a message had a role outside the four; developer
	// became system, others a user note.
	RepairUnknownRole = "unknown_role"
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
	case RepairToolCallID:
		return fmt.Sprintf("renamed a duplicate or empty tool-call id to %q (message #%d)", f.CallID, f.Index+1)
	case RepairUnknownRole:
		return fmt.Sprintf("message #%d had role %q; kept it as a %s message", f.Index+1, f.CallID, map[bool]string{true: "system", false: "user"}[f.CallID == "developer"])
	}
	return f.Kind
}

// Validate reports the first violation of the sequence rules in package doc,
// wrapped around ErrSequence with the position involved, or nil.
func Validate(h []Message) error { return validateFrom(h, 0) }

// validateFrom is Validate over h[from:], with message numbers counted
// from the start of h: from is 0 or the index of an assistant message,
// where every rule's state starts afresh.
func validateFrom(h []Message, from int) error {
	// The maps are emptied and reused from group to group: a long history
	// is checked without an allocation per turn.
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
	for i := from; i < len(h); i++ {
		m := &h[i]
		switch m.Role {
		case RoleAssistant:
			if err := flush(i); err != nil {
				return err
			}
			clearMap(pending)
			clearMap(answered)
			order = order[:0]
			if m.Content == "" && len(m.ToolCalls) == 0 {
				return fmt.Errorf("%w: message #%d is an empty assistant message", ErrSequence, i+1)
			}
			for _, c := range m.ToolCalls {
				if c.ID == "" || pending[c.ID] {
					return fmt.Errorf("%w: message #%d has an empty or duplicate tool-call id %q", ErrSequence, i+1, c.ID)
				}
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
			clearMap(pending)
			order = order[:0]
		default:
			return fmt.Errorf("%w: message #%d has unknown role %q", ErrSequence, i+1, m.Role)
		}
	}
	return flush(len(h))
}

// clearMap empties m, cheaply when it is empty already.
func clearMap[V any](m map[string]V) {
	if len(m) > 0 {
		clear(m)
	}
}

// Repair returns h repaired so that it passes Validate, and the fixes it
// made, in order; h itself is not modified. It never reorders messages and
// never drops text:
//   - a result without its call becomes a user note quoting it;
//   - a missing result becomes a tool message with InterruptedResult,
//     placed right after the call's group;
//   - duplicate or empty call ids within one assistant message are renamed
//     ("a", "a~2", …; "call~1", … for empty ones), and their results, taken
//     in order, follow the new ids;
//   - "developer" (OpenAI's newer name for system) becomes system, and any
//     other unknown role a user note naming it;
//   - an empty assistant message (nothing to keep) is removed.
//
// A history that already passes is returned as is, with no fixes.
func Repair(h []Message) ([]Message, []Fix) {
	if Validate(h) == nil {
		return h, nil
	}
	r := repairer{out: make([]Message, 0, len(h)+1), open: map[string]bool{}, renamed: map[string][]string{}}
	for i, m := range h {
		switch m.Role {
		case RoleAssistant:
			r.closeGroup()
			if m.Content == "" && len(m.ToolCalls) == 0 {
				r.fixes = append(r.fixes, Fix{Kind: RepairEmptyAssistant, Index: i})
				continue
			}
			m = r.openGroup(m)
		case RoleTool:
			id := m.ToolCallID
			if q := r.renamed[id]; len(q) > 0 {
				m.ToolCallID, r.renamed[id] = q[0], q[1:]
				m.Meta = withRepair(m.Meta, RepairToolCallID)
			}
			if !r.open[m.ToolCallID] {
				r.note(m, fmt.Sprintf("[tool result %q without its call]", id), RepairOrphanResult, id)
				continue
			}
			r.open[m.ToolCallID] = false
		case RoleUser, RoleSystem:
			r.closeGroup()
		case "developer":
			r.closeGroup()
			m.Role, m.Meta = RoleSystem, withRepair(m.Meta, RepairUnknownRole)
			r.fixes = append(r.fixes, Fix{Kind: RepairUnknownRole, Index: len(r.out), CallID: "developer"})
		default:
			r.closeGroup()
			r.note(m, fmt.Sprintf("[message with unknown role %q]", m.Role), RepairUnknownRole, string(m.Role))
			continue
		}
		r.out = append(r.out, m)
	}
	r.closeGroup()
	if len(r.fixes) == 0 {
		return h, nil
	}
	return r.out, r.fixes
}

// repairer is Repair's state while it walks a history.
type repairer struct {
	out     []Message
	fixes   []Fix
	pending []string            // call ids of the open assistant turn, in order
	open    map[string]bool     // call id -> still without result
	renamed map[string][]string // original id -> new ids, in call order
}

// openGroup starts an assistant turn's group, renaming duplicate and empty
// call ids; it returns the message with the new ids.
func (r *repairer) openGroup(m Message) Message {
	seen := map[string]int{}
	calls := slices.Clone(m.ToolCalls)
	for k, c := range m.ToolCalls {
		seen[c.ID]++
		if c.ID != "" && seen[c.ID] == 1 {
			r.pending = append(r.pending, c.ID)
			r.open[c.ID] = true
			continue
		}
		id := fmt.Sprintf("%s~%d", c.ID, seen[c.ID])
		if c.ID == "" {
			id = fmt.Sprintf("call~%d", seen[c.ID])
		}
		calls[k].ID = id
		r.pending = append(r.pending, id)
		r.open[id] = true
		r.renamed[c.ID] = append(r.renamed[c.ID], id)
		if c.ID != "" && seen[c.ID] == 2 {
			// The first result for c.ID answers the first call, which kept it.
			r.renamed[c.ID] = append([]string{c.ID}, r.renamed[c.ID]...)
		}
		r.fixes = append(r.fixes, Fix{Kind: RepairToolCallID, Index: len(r.out), CallID: id})
	}
	m.ToolCalls = calls
	if len(r.fixes) > 0 && r.fixes[len(r.fixes)-1].Kind == RepairToolCallID && r.fixes[len(r.fixes)-1].Index == len(r.out) {
		m.Meta = withRepair(m.Meta, RepairToolCallID)
	}
	return m
}

// closeGroup ends the open group, adding an interrupted result for every
// call still without one.
func (r *repairer) closeGroup() {
	for _, id := range r.pending {
		if r.open[id] {
			r.out = append(r.out, Message{Role: RoleTool, ToolCallID: id, Content: InterruptedResult,
				Meta: &Meta{Repair: RepairInterrupted}})
			r.fixes = append(r.fixes, Fix{Kind: RepairInterrupted, Index: len(r.out) - 1, CallID: id})
		}
	}
	r.pending, r.open, r.renamed = nil, map[string]bool{}, map[string][]string{}
}

// note keeps m as a user message whose text starts with label.
func (r *repairer) note(m Message, label, kind, id string) {
	m.Role, m.ToolCallID, m.ToolCalls = RoleUser, "", nil
	m.Content = label + "\n" + m.Content
	m.Meta = withRepair(m.Meta, kind)
	r.out = append(r.out, m)
	r.fixes = append(r.fixes, Fix{Kind: kind, Index: len(r.out) - 1, CallID: id})
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
// dropped, a prompt marked Unanswered that a later prompt follows (only
// system messages between them) is left out, since its request failed or
// was cancelled and the person moved on, and the remaining consecutive user
// messages are merged into one, their texts joined by a blank line, so no
// request holds two user messages in a row. h is not modified.
//
// Two meta fields are kept (as a Meta holding only them): ToolError on a
// tool message, since whether a call failed is part of what the model is
// told and a provider whose format has a place for it (Anthropic's
// tool_result is_error) sends it there; and Reasoning on an assistant
// message, which the provider that wrote it replays. Providers read nothing
// else from Meta.
func Request(h []Message) []Message {
	out := make([]Message, 0, len(h))
	for i, m := range h {
		if superseded(h, i) {
			continue
		}
		failed := m.Role == RoleTool && m.Meta != nil && (m.Meta.ToolError || m.Meta.Repair == RepairInterrupted)
		var reasoning *Reasoning
		if m.Role == RoleAssistant && m.Meta != nil {
			reasoning = m.Meta.Reasoning
		}
		m.Meta, m.Extra = nil, nil
		if failed || reasoning != nil {
			m.Meta = &Meta{ToolError: failed, Reasoning: reasoning}
		}
		if n := len(out); n > 0 && m.Role == RoleUser && out[n-1].Role == RoleUser {
			out[n-1].Content = strings.TrimRight(out[n-1].Content, "\n") + "\n\n" + m.Content
			out[n-1].Images = append(slices.Clip(out[n-1].Images), m.Images...)
			continue
		}
		out = append(out, m)
	}
	return out
}

// superseded reports whether h[i] is an unanswered prompt followed by
// another prompt with only system messages between them.
func superseded(h []Message, i int) bool {
	if h[i].Role != RoleUser || h[i].Meta == nil || !h[i].Meta.Unanswered {
		return false
	}
	for _, m := range h[i+1:] {
		if m.Role != RoleSystem {
			return m.Role == RoleUser
		}
	}
	return false
}
