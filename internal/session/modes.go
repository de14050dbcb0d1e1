package session

import (
	"encoding/json"

	"github.com/chatcli/chatcli/internal/message"
)

// ModesMerge says what Decode did with a version-2 file's per-mode
// histories.
//
// ChatCLI 1.66 wrote version 2 with agent_history and coder_history beside
// chat_history; ChatCLI 1.188.0 keeps one history and, loading such a file,
// appends the non-system messages of agent_history, then of coder_history,
// to chat_history (its ChatCLI.restoreSessionData), and writes only the
// merged history back. Decode does the same: the merged messages get
// meta.mode "agent" or "coder" when they have none, the system prompts of
// those modes are dropped, and the arrays are emptied, so a file is merged
// once. An array that is not a message array is left as it was.
type ModesMerge struct {
	// Messages is the number of messages appended to History; System the
	// number of system messages dropped.
	Messages, System int
}

// mergeScoped merges the per-mode histories of a version-2 session into its
// History, as ModesMerge describes.
func mergeScoped(s *Session) {
	if s.SourceVersion < 2 {
		return
	}
	for _, part := range []struct {
		raw  *json.RawMessage
		mode string
	}{{&s.AgentHistory, "agent"}, {&s.CoderHistory, "coder"}} {
		if len(*part.raw) == 0 {
			continue
		}
		h, err := message.DecodeList(*part.raw)
		if err != nil {
			continue // not messages: kept verbatim, as before
		}
		for _, m := range h {
			if m.Role == message.RoleSystem {
				s.ModesMerged.System++
				continue
			}
			if m.Meta == nil {
				m.Meta = &message.Meta{}
			}
			if m.Meta.Mode == "" {
				m.Meta.Mode = part.mode
			}
			s.History = append(s.History, m)
			s.ModesMerged.Messages++
		}
		*part.raw = nil
	}
}
