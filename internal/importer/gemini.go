package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Gemini CLI records each chat under ~/.gemini/tmp/<project>/chats/ as
// session-<time>-<id>.json, one ConversationRecord {sessionId,
// projectHash, startTime, lastUpdated, messages, summary} (gemini-cli
// packages/core/src/services/chatRecordingTypes.ts), or, in later
// versions, session-….jsonl: a metadata line {sessionId, projectHash, …},
// then one MessageRecord per line (a record written again with the same
// id replaces the earlier one in place), {"$set": {…}} lines updating the
// metadata (a "messages" member replaces every message) and
// {"$rewindTo": id} lines dropping that message and those after it.
// A MessageRecord is {id, timestamp, type: user|gemini|info|error|warning,
// content: text or parts, toolCalls: [{id, name, args, result (parts),
// status, resultDisplay}]}; info, error and warning records are the CLI's
// own notices and are left out, as are thought parts. The chats folder's
// project may name its root in a .project_root file beside chats/, which
// gives the working folder.
//
// A resumed chat goes on under the same sessionId (ChatRecordingService.
// initialize with resumedSessionData): in the same .jsonl file, or, for a
// whole-file .json record, in the "<file>l" copy it is migrated to, which
// repeats every message before the new ones. Conversations are keyed by
// sessionId, so the two files are one conversation and the later adds
// only what is new. Nothing else links chats: the record has no parent
// or fork member, and /chat save and /chat resume keep their checkpoints
// outside chats/.

type geminiRecord struct {
	SessionID   string          `json:"sessionId"`
	ProjectHash string          `json:"projectHash"`
	StartTime   string          `json:"startTime"`
	Summary     string          `json:"summary"`
	Messages    []geminiMessage `json:"messages"`
}

type geminiMessage struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		ID            string          `json:"id"`
		Name          string          `json:"name"`
		Args          json.RawMessage `json:"args"`
		Result        json.RawMessage `json:"result"`
		Status        string          `json:"status"`
		ResultDisplay json.RawMessage `json:"resultDisplay"`
		Timestamp     string          `json:"timestamp"`
	} `json:"toolCalls"`
}

// geminiPart is a @google/genai Part, as far as it is read here.
type geminiPart struct {
	Text             *string `json:"text"`
	Thought          bool    `json:"thought"`
	FunctionResponse *struct {
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
	InlineData *json.RawMessage `json:"inlineData"`
}

// gemini reads Gemini CLI's recorded chats.
var gemini = Source{
	Name:    "gemini",
	Prefix:  "gemini",
	Default: []string{".gemini/tmp"},
	Match: func(path string) bool {
		base := filepath.Base(path)
		return strings.HasPrefix(base, "session-") && (strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonl"))
	},
	Read: readGemini,
}

func readGemini(path string) ([]Conversation, []Problem, error) {
	rec, problems, err := geminiLoad(path)
	if err != nil {
		return nil, problems, err
	}
	c := Conversation{Tool: "gemini", Path: path, ID: rec.SessionID, Title: rec.Summary, Folder: geminiRoot(path)}
	var b builder
	b.saw(parseTime(rec.StartTime))
	for _, m := range rec.Messages {
		at := parseTime(m.Timestamp)
		switch m.Type {
		case "user":
			b.user(geminiText(m.Content), at)
		case "gemini":
			b.assistant(geminiText(m.Content), at)
			for _, tc := range m.ToolCalls {
				b.call(tc.ID, tc.Name, string(tc.Args), at)
			}
			for _, tc := range m.ToolCalls {
				out := geminiText(tc.Result)
				if out == "" {
					out = rawText(tc.ResultDisplay)
				}
				b.result(tc.ID, out, tc.Status == "error" || tc.Status == "cancelled", parseTime(tc.Timestamp))
			}
		}
	}
	if c.ID == "" {
		c.ID = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".jsonl"), ".json")
	}
	return []Conversation{b.conversation(c)}, problems, nil
}

// geminiLoad reads a .json record whole, or replays a .jsonl file as
// Gemini CLI's loadConversationRecord does.
func geminiLoad(path string) (geminiRecord, []Problem, error) {
	var rec geminiRecord
	if strings.HasSuffix(path, ".json") {
		data, err := os.ReadFile(path)
		if err != nil {
			return rec, nil, err
		}
		if err := json.Unmarshal(data, &rec); err != nil {
			return rec, nil, i18n.Errorf("%s: not a Gemini CLI chat record: %w", path, err)
		}
		return rec, nil, nil
	}
	var order []string
	byID := map[string]geminiMessage{}
	put := func(m geminiMessage) {
		if _, ok := byID[m.ID]; !ok {
			order = append(order, m.ID)
		}
		byID[m.ID] = m
	}
	problems, err := readLines(path, func(_ int, raw []byte) error {
		var l struct {
			geminiMessage
			RewindTo *string         `json:"$rewindTo"`
			Set      json.RawMessage `json:"$set"`
			geminiRecord
		}
		if err := json.Unmarshal(raw, &l); err != nil {
			return notJSON(err)
		}
		switch {
		case l.RewindTo != nil:
			for i, id := range order {
				if id == *l.RewindTo {
					for _, gone := range order[i:] {
						delete(byID, gone)
					}
					order = order[:i]
					return nil
				}
			}
			order, byID = nil, map[string]geminiMessage{}
		case l.Set != nil:
			var set geminiRecord
			if err := json.Unmarshal(l.Set, &set); err != nil {
				return errForeign
			}
			if set.Messages != nil {
				order, byID = nil, map[string]geminiMessage{}
				for _, m := range set.Messages {
					put(m)
				}
			}
			if set.Summary != "" {
				rec.Summary = set.Summary
			}
		case l.geminiMessage.ID != "":
			put(l.geminiMessage)
		case l.SessionID != "":
			rec.SessionID, rec.ProjectHash, rec.StartTime = l.SessionID, l.ProjectHash, l.StartTime
			if l.Summary != "" {
				rec.Summary = l.Summary
			}
			for _, m := range l.geminiRecord.Messages {
				put(m)
			}
		default:
			return errForeign
		}
		return nil
	})
	for _, id := range order {
		rec.Messages = append(rec.Messages, byID[id])
	}
	return rec, problems, err
}

// geminiText is the text of a PartListUnion: a string, a part, or a list
// of strings and parts; function responses give their response's output
// (or the response as JSON), thoughts are left out, inline data is
// "[image]".
func geminiText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		list = []json.RawMessage{raw}
	}
	var parts []string
	for _, item := range list {
		if json.Unmarshal(item, &s) == nil {
			parts = append(parts, s)
			continue
		}
		var p geminiPart
		if json.Unmarshal(item, &p) != nil || p.Thought {
			continue
		}
		switch {
		case p.Text != nil:
			parts = append(parts, *p.Text)
		case p.FunctionResponse != nil:
			var r struct {
				Output *string `json:"output"`
				Error  *string `json:"error"`
			}
			switch json.Unmarshal(p.FunctionResponse.Response, &r); {
			case r.Output != nil:
				parts = append(parts, *r.Output)
			case r.Error != nil:
				parts = append(parts, *r.Error)
			default:
				parts = append(parts, rawText(p.FunctionResponse.Response))
			}
		case p.InlineData != nil:
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "")
}

// geminiRoot is the project root a .project_root file beside the chats
// folder names, "" when there is none.
func geminiRoot(path string) string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(path)), ".project_root"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
