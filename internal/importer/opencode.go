package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

// opencode writes a session with `opencode export [sessionID]` as one JSON
// document (packages/opencode/src/cli/cmd/export.ts): {"info": Session.Info
// {id, title, directory, time: {created, updated}}, "messages": [{"info":
// {id, role: user|assistant, time: {created, completed}}, "parts": […]}],
// "todos"}, times in milliseconds since 1970. Parts (MessageV2.Part) read
// here are "text" {text} and "tool" {callID, tool, state: {status:
// pending|running|completed|error, input, output, error}}; reasoning,
// step, snapshot, patch and file parts are left out (a file as
// "[file <name>]").
//
// opencode records no continuation to follow: a resumed session
// (--continue, --session) goes on under its own id, so a later export
// adds to the same conversation; a fork (Session.fork in
// packages/opencode/src/session/index.ts) is a new session whose messages
// are copies under new ids, titled "<title> (fork #n)", with nothing
// naming the session it came from; and parentID names the session whose
// task tool started this one, a conversation of its own. Each export is
// therefore imported as its own conversation.

type opencodeExport struct {
	Info     *opencodeInfo `json:"info"`
	Messages []struct {
		Info struct {
			Role string       `json:"role"`
			Time opencodeTime `json:"time"`
		} `json:"info"`
		Parts []opencodePart `json:"parts"`
	} `json:"messages"`
}

type opencodeInfo struct {
	ID        string       `json:"id"`
	Title     string       `json:"title"`
	Directory string       `json:"directory"`
	Time      opencodeTime `json:"time"`
}

type opencodeTime struct {
	Created int64 `json:"created"`
	Updated int64 `json:"updated"`
}

type opencodePart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	CallID   string `json:"callID"`
	Tool     string `json:"tool"`
	Filename string `json:"filename"`
	State    struct {
		Status string          `json:"status"`
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
		Error  string          `json:"error"`
		Time   struct {
			Start int64 `json:"start"`
		} `json:"time"`
	} `json:"state"`
}

// opencode reads files `opencode export` wrote; it has no default folder
// (opencode keeps its own store in a database).
var opencode = Source{
	Name:   "opencode",
	Prefix: "opencode",
	Match:  func(path string) bool { return strings.HasSuffix(path, ".json") },
	Read:   readOpencode,
}

func readOpencode(path string) ([]Conversation, []Problem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var x opencodeExport
	if err := json.Unmarshal(data, &x); err != nil {
		return nil, nil, i18n.Errorf("%s: not an opencode export: %w", path, err)
	}
	if x.Info == nil || x.Info.ID == "" {
		return nil, nil, i18n.Errorf("%s: not an opencode export: no info.id", path)
	}
	c := Conversation{Tool: "opencode", Path: path, ID: x.Info.ID, Title: x.Info.Title, Folder: x.Info.Directory}
	var b builder
	b.saw(millis(x.Info.Time.Created))
	b.saw(millis(x.Info.Time.Updated))
	var problems []Problem
	for i, m := range x.Messages {
		at := millis(m.Info.Time.Created)
		switch m.Info.Role {
		case "user":
			for _, p := range m.Parts {
				switch p.Type {
				case "text":
					b.user(p.Text, at)
				case "file":
					b.user("[file "+p.Filename+"]", at)
				}
			}
		case "assistant":
			opencodeAssistant(&b, m.Parts, at)
		default:
			problems = append(problems, Problem{Path: path, Reason: i18n.Errorf("%s: role %q is not opencode's; skipped", fmt.Sprintf("messages[%d]", i), m.Info.Role)})
		}
	}
	return []Conversation{b.conversation(c)}, problems, nil
}

// opencodeAssistant adds an assistant message's parts in order: text, the
// calls of a step, and their results after them (at the step's end).
func opencodeAssistant(b *builder, parts []opencodePart, at time.Time) {
	type result struct {
		id, out string
		failed  bool
		at      time.Time
	}
	var pending []result
	flush := func() {
		for _, r := range pending {
			b.result(r.id, r.out, r.failed, r.at)
		}
		pending = nil
	}
	for _, p := range parts {
		switch p.Type {
		case "step-start", "step-finish":
			flush()
		case "text":
			flush()
			b.assistant(p.Text, at)
		case "tool":
			callAt := at
			if t := millis(p.State.Time.Start); !t.IsZero() {
				callAt = t
			}
			b.call(p.CallID, p.Tool, string(p.State.Input), callAt)
			switch p.State.Status {
			case "completed":
				pending = append(pending, result{p.CallID, rawText(p.State.Output), false, callAt})
			case "error":
				pending = append(pending, result{p.CallID, p.State.Error, true, callAt})
			}
		}
	}
	flush()
}

// millis is a time in milliseconds since 1970; zero for 0.
func millis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
