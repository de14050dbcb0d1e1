package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/session"
)

// Actions are manage_session's actions, in the order the schema lists them.
var Actions = []string{"save", "load", "list", "delete", "new", "fork", "rename", "attach", "detach",
	"status", "clear", "export", "search"}

// searchHits is how many hits the search action returns.
const searchHits = 10

// SessionInput is the manage_session tool's input. Which fields an action
// needs: save, load, delete, fork, attach: name; rename: new_name (name
// defaults to the bound session); search: query; export: format (name
// optional: a stored session instead of the live conversation).
type SessionInput struct {
	Action  string `json:"action" jsonschema:"what to do, as the /session verb of the same name"`
	Name    string `json:"name,omitempty" jsonschema:"session name: letters and digits of any script, '.', '_', '-'; first a letter or digit"`
	NewName string `json:"new_name,omitempty" jsonschema:"rename: the new name"`
	Query   string `json:"query,omitempty" jsonschema:"search: words to find in every session and journal"`
	Format  string `json:"format,omitempty" jsonschema:"export: md (Markdown) or jsonl"`
	Yes     bool   `json:"yes,omitempty" jsonschema:"confirm: delete needs it; save needs it to replace another existing session"`
	Limit   int    `json:"limit,omitempty" jsonschema:"list: at most this many sessions (default 100, at most 1000)"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"list: the next_cursor of the previous page; omit for the first"`
	// Session is ChatCLI's argument of the same name (its live session
	// id). This server holds one conversation, so it only stands in for
	// name where name is needed (save, load, attach, delete, fork) and
	// not given.
	Session string `json:"session,omitempty" jsonschema:"ChatCLI's live session id; here, the name when name is omitted"`
}

// Pages of the list action: DefaultListLimit sessions unless limit says
// otherwise, at most MaxListLimit.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// SessionOutput is manage_session's structured result.
type SessionOutput struct {
	Action string `json:"action"`
	// Text is what the /session verb reports; for export, the document.
	Text string `json:"text"`
	// Bound is the bound session after the action, "" when unbound.
	Bound string `json:"bound"`
	// Mirror is the mirror session the live conversation was kept in, when
	// the action wrote one (clear).
	Mirror string `json:"mirror,omitempty"`
	// Messages is the length of the live history after the action.
	Messages int `json:"messages"`
	// Sessions is one page of the list (action list), newest first;
	// NextCursor is the cursor of the next page ("" on the last) and
	// Total the number of sessions in the store.
	Sessions   []SessionInfo `json:"sessions,omitzero"`
	NextCursor string        `json:"next_cursor,omitempty" jsonschema:"list: pass as cursor for the next page; absent on the last"`
	Total      int           `json:"total,omitempty" jsonschema:"list: sessions in the store"`
	// Hits are the search results (action search), best first.
	Hits []Hit `json:"hits,omitzero"`
}

// SessionInfo is one row of the list action.
type SessionInfo struct {
	Name      string `json:"name"`
	Title     string `json:"title"`
	Messages  int    `json:"messages"`
	UpdatedAt string `json:"updated_at" jsonschema:"RFC 3339 time of the last save"`
	Error     string `json:"error,omitempty" jsonschema:"why the file cannot be read"`
}

// Hit is one search result.
type Hit struct {
	Source   string   `json:"source" jsonschema:"session name, or journal:<id> when no session names the journal"`
	Deleted  bool     `json:"deleted,omitempty" jsonschema:"the session was deleted (it is in the trash)"`
	AlsoIn   []string `json:"also_in,omitempty" jsonschema:"the other sessions (forks) holding the same message"`
	Position int      `json:"position" jsonschema:"1-based position of the message in its source"`
	Role     string   `json:"role"`
	Snippet  string   `json:"snippet"`
	Score    float64  `json:"score" jsonschema:"BM25 score, higher is better"`
}

func sessionTool() *mcp.Tool {
	schema, err := jsonschema.For[SessionInput](nil)
	if err != nil {
		panic(err) // a static type: fails in every test run or never
	}
	schema.Properties["action"].Enum = toAny(Actions)
	schema.Properties["format"].Enum = []any{"md", "jsonl"}
	return &mcp.Tool{
		Name:  "manage_session",
		Title: "Manage sessions",
		Description: "Manage chatcli's saved sessions, with the semantics of the REPL's /session commands: " +
			"save NAME (bind to it; yes replaces another), load NAME, list, delete NAME (yes required; to the trash), " +
			"new, fork NAME, rename [NAME] NEW_NAME, attach NAME, detach, status, clear (keep the conversation in its " +
			"session or mirror, then start empty), export format=md|jsonl [NAME], search QUERY. list is paged: limit " +
			"(default 100) and cursor (the previous page's next_cursor).",
		InputSchema:  schema,
		OutputSchema: outputSchema[SessionOutput](),
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// manage runs one action; every failure is a tool error naming the session.
func (s *Server) manage(_ context.Context, _ *mcp.CallToolRequest, in SessionInput) (*mcp.CallToolResult, SessionOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch in.Action {
	case "save", "load", "attach", "delete", "fork":
		if in.Name == "" {
			in.Name = in.Session
		}
	}
	out := SessionOutput{Action: in.Action}
	var b, warn bytes.Buffer
	env := &command.Env{Engine: s.e, Out: &b, Err: &warn}
	boundBefore := s.e.Bound()
	err := s.run(env, in, &out)
	for _, w := range strings.Split(strings.TrimSpace(warn.String()), "\n") {
		if w != "" {
			s.o.Log(w)
		}
	}
	if err != nil {
		if errors.Is(err, session.ErrExists) && in.Action == "save" {
			err = fmt.Errorf("%w (set yes to replace it)", err)
		}
		return nil, SessionOutput{}, toolError(err)
	}
	switch in.Action {
	case "save", "load", "attach", "fork", "new", "clear":
		s.newConversation()
	case "delete":
		if boundBefore != "" && s.e.Bound() == "" {
			s.newConversation()
		}
	}
	out.Text = b.String()
	out.Bound, out.Messages = s.e.Bound(), len(s.e.History())
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Text}}}, out, nil
}

// run dispatches one action.
func (s *Server) run(env *command.Env, in SessionInput, out *SessionOutput) error {
	need := func(field, value string) error {
		if strings.TrimSpace(value) == "" {
			return fmt.Errorf("%w: manage_session %s needs %s", command.ErrUsage, in.Action, field)
		}
		return nil
	}
	switch in.Action {
	case "save", "load", "fork", "attach":
		if err := need("name", in.Name); err != nil {
			return err
		}
		return command.RunSessionVerb(env, in.Action, []string{in.Name}, in.Yes)
	case "delete":
		if err := need("name", in.Name); err != nil {
			return err
		}
		if !in.Yes {
			return fmt.Errorf("%w: deleting session %q needs confirmation: call again with yes set (it goes to the trash; `chatcli session restore %s` brings it back)",
				command.ErrUsage, in.Name, in.Name)
		}
		return command.RunSessionVerb(env, "delete", []string{in.Name}, true)
	case "new", "detach", "status":
		return command.RunSessionVerb(env, in.Action, nil, in.Yes)
	case "list":
		return s.list(env, in, out)
	case "rename":
		return s.rename(env, in, need)
	case "clear":
		return s.clear(env, out)
	case "export":
		if err := need("format (md or jsonl)", in.Format); err != nil {
			return err
		}
		return s.export(env, in)
	case "search":
		if err := need("query", in.Query); err != nil {
			return err
		}
		return s.search(env, in.Query, out)
	}
	return fmt.Errorf("%w: unknown action %q; one of %s", command.ErrUsage, in.Action, strings.Join(Actions, ", "))
}

// list answers one page of the list action; the text lists the same page.
func (s *Server) list(env *command.Env, in SessionInput, out *SessionOutput) error {
	limit := in.Limit
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 0 || limit > MaxListLimit {
		return fmt.Errorf("%w: manage_session list: limit %d: want 1 to %d", command.ErrUsage, in.Limit, MaxListLimit)
	}
	list, err := s.e.Store().List()
	if err != nil {
		return err
	}
	page, err := command.PageOf(len(list), in.Cursor, limit)
	if err != nil {
		return fmt.Errorf("manage_session list: %w", err)
	}
	out.Total, out.NextCursor = len(list), page.Next
	list = list[page.From:page.To]
	for _, w := range command.ListWarnings(s.o.Lang, list) { // the listed sessions' damaged journal lines, to the log
		fmt.Fprint(env.Err, s.o.Lang.Sprintf("warning: %s\n", w))
	}
	out.Sessions = make([]SessionInfo, 0, len(list))
	for _, h := range list {
		info := SessionInfo{Name: h.Name, Title: h.Title, Messages: h.Messages}
		if !h.UpdatedAt.IsZero() {
			info.UpdatedAt = h.UpdatedAt.UTC().Format(time.RFC3339)
		}
		if h.Err != nil {
			info.Error = h.Err.Error()
		}
		out.Sessions = append(out.Sessions, info)
	}
	command.WriteList(env.Out, list, s.e.Bound())
	if page.Next != "" {
		fmt.Fprintf(env.Out, "(sessions %d-%d of %d; cursor %s gives the next page)\n", page.From+1, page.To, out.Total, page.Next)
	}
	return nil
}

func (s *Server) rename(env *command.Env, in SessionInput, need func(string, string) error) error {
	if err := need("new_name", in.NewName); err != nil {
		return err
	}
	if in.Name == "" && s.e.Bound() == "" {
		return fmt.Errorf("%w: manage_session rename needs name (no session is bound)", command.ErrUsage)
	}
	args := []string{in.NewName}
	if in.Name != "" {
		args = []string{in.Name, in.NewName}
	}
	return command.RunSessionVerb(env, "rename", args, false)
}

// clear keeps the conversation (mirrored once more when unbound; written
// through when bound) and starts an empty, unbound one. With the mirror off
// unsaved content is kept as an autosave, as /session new does.
func (s *Server) clear(env *command.Env, out *SessionOutput) error {
	n := len(s.e.History())
	mirror, err := s.mirrorNow()
	if err != nil {
		return err
	}
	bound := s.e.Bound()
	autosaved, err := s.e.New()
	if err != nil {
		return err
	}
	out.Mirror = mirror
	switch kept := firstNonEmpty(mirror, bound, autosaved); {
	case n == 0:
		fmt.Fprintln(env.Out, "The conversation was already empty.")
	case kept != "":
		fmt.Fprintf(env.Out, "Cleared the conversation (%d messages); session %q keeps it.\n", n, kept)
	default:
		fmt.Fprintf(env.Out, "Cleared the conversation (%d messages).\n", n)
	}
	return nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// export writes the transcript of session name (the live conversation
// when name is "") as the result's text.
func (s *Server) export(env *command.Env, in SessionInput) error {
	var t conversation.Transcript
	var err error
	label := firstNonEmpty(in.Name, s.e.Bound(), "unsaved")
	if in.Name == "" {
		t, err = s.e.Transcript()
	} else {
		var sess *session.Session
		if sess, err = s.e.Store().Load(in.Name); err == nil {
			t, err = conversation.ReadTranscript(s.e.JournalDir(), sess.TranscriptID, sess.History, s.e.Store().Key())
		}
	}
	if err != nil {
		return err
	}
	for _, w := range t.Warnings {
		fmt.Fprintln(env.Err, "warning: "+w.String())
	}
	_, err = command.Export(in.Format, "-", label, t.Messages, time.Now(), env.Out, false)
	return err
}

func (s *Server) search(env *command.Env, query string, out *SessionOutput) error {
	hits, warnings, err := s.e.SearchSessionHits(query, searchHits)
	for _, w := range warnings {
		fmt.Fprintln(env.Err, "warning: "+w.String())
	}
	if err != nil {
		return err
	}
	out.Hits = make([]Hit, 0, len(hits))
	for _, h := range hits {
		src := h.Session
		if src == "" {
			src = journal.LineName(h.Journal)
		}
		out.Hits = append(out.Hits, Hit{Source: src, Deleted: h.Deleted, AlsoIn: h.Members, Position: h.Position, Role: h.Role, Snippet: h.Snippet, Score: h.Score})
	}
	command.WriteHits(nil, env.Out, conversation.SearchHits(hits), true)
	return nil
}
