package acpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
)

// acpSession is one ACP session: an engine and the lock that runs its
// prompts one at a time.
type acpSession struct {
	id acp.SessionId

	mu     sync.Mutex // held while a prompt, command or close runs
	engine *conversation.Engine
	closed bool
	// generation counts the conversations this thread held after its
	// first: a /session verb that replaces or rebinds the conversation
	// starts the next one (mirrorName).
	generation int
}

// mirrorName is where the unbound conversation is mirrored:
// mcp-<sessionId>, then mcp-<sessionId>-2, -3, … for each later
// conversation the thread holds (a mirrored conversation counts as saved, so
// the next one must not overwrite it).
func (ss *acpSession) mirrorName() string {
	if ss.generation > 0 {
		return fmt.Sprintf("%s%s-%d", MirrorPrefix, ss.id, ss.generation+1)
	}
	return MirrorPrefix + string(ss.id)
}

// mirror writes the unbound conversation to its mirror when on; a failure
// is a notice, never the prompt's error.
func (ss *acpSession) mirror(o Options) error {
	if !o.Mirror || ss.engine.Bound() != "" {
		return nil
	}
	err := ss.engine.Mirror(ss.mirrorName())
	if err != nil {
		o.Notify(o.Lang.Sprintf("ACP session %s: mirror %q not written: %v", ss.id, ss.mirrorName(), command.ErrorLineIn(o.Lang, err)))
	}
	return err
}

// close ends the session: bound conversations are written through, unbound
// ones mirrored once more; when the mirror is off or fails, Engine.Close
// decides (an autosave only when the mirror failed).
func (ss *acpSession) close(o Options) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return
	}
	ss.closed = true
	autosave := false
	if ss.engine.Bound() == "" && o.Mirror {
		autosave = ss.mirror(o) != nil
	}
	name, err := ss.engine.Close(autosave)
	if err != nil {
		o.Notify(o.Lang.Sprintf("ACP session %s: %v", ss.id, command.ErrorLineIn(o.Lang, err)))
	}
	if name != "" {
		o.Notify(o.Lang.Sprintf("ACP session %s saved as %q", ss.id, name))
	}
}

// LoadSession binds sessionId as a chatcli session name (attach semantics)
// and replays its history before answering.
func (s *Server) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if err := checkCwd("session/load", p.Cwd); err != nil {
		return acp.LoadSessionResponse{}, s.reqError(err)
	}
	e, err := s.o.NewEngine(p.Cwd)
	if err != nil {
		return acp.LoadSessionResponse{}, s.reqError(err)
	}
	name := string(p.SessionId)
	if !e.Store().Exists(name) && e.Store().Exists(MirrorPrefix+name) {
		name = MirrorPrefix + name
	}
	if _, _, err := e.Attach(name); err != nil {
		e.Close(false)
		return acp.LoadSessionResponse{}, s.reqError(fmt.Errorf("session/load %s: %w", p.SessionId, err))
	}
	ss := &acpSession{id: p.SessionId, engine: e}
	ss.mu.Lock()
	s.put(p.SessionId, ss) // a prompt on it waits for the replay
	err = s.replay(ctx, p.SessionId, e.History())
	ss.mu.Unlock()
	if err != nil {
		return acp.LoadSessionResponse{}, s.reqError(fmt.Errorf("session/load %s: replay: %w", p.SessionId, err))
	}
	return acp.LoadSessionResponse{}, nil
}

// ListSessions lists the store's sessions, newest first, ListPageSize at a
// time; the cursor is the decimal offset of the next page. Each session's
// cwd is the folder it was last used in (Options.Folders), else the
// request's cwd, else the server's.
func (s *Server) ListSessions(_ context.Context, p acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	e, err := s.o.NewEngine("")
	if err != nil {
		return acp.ListSessionsResponse{}, s.reqError(err)
	}
	defer e.Close(false)
	heads, err := e.Store().List()
	if err != nil {
		return acp.ListSessionsResponse{}, s.reqError(err)
	}
	cursor := ""
	if p.Cursor != nil {
		cursor = *p.Cursor
	}
	page, err := command.PageOf(len(heads), cursor, ListPageSize)
	if err != nil {
		return acp.ListSessionsResponse{}, s.reqError(i18n.Errorf("%w: session/list: %s", errInvalid, command.ErrorLineIn(s.o.Lang, err)))
	}
	cwd := s.o.WorkDir
	if p.Cwd != nil && *p.Cwd != "" {
		cwd = *p.Cwd
	}
	var folders map[string]string
	if s.o.Folders != nil {
		folders = s.o.Folders()
	}
	if s.o.Notify != nil { // the listed sessions' damaged journal lines, on stderr
		for _, w := range command.ListWarnings(s.o.Lang, heads[page.From:page.To]) {
			s.o.Notify(strings.TrimSuffix(s.o.Lang.Sprintf("warning: %s\n", w), "\n"))
		}
	}
	out := acp.ListSessionsResponse{Sessions: []acp.SessionInfo{}}
	for _, h := range heads[page.From:page.To] {
		info := acp.SessionInfo{SessionId: acp.SessionId(h.Name), Cwd: cwd}
		if f := folders[h.Name]; f != "" {
			info.Cwd = f
		}
		if h.Err == nil {
			info.Title = acp.Ptr(h.Title)
			if !h.UpdatedAt.IsZero() {
				info.UpdatedAt = acp.Ptr(h.UpdatedAt.UTC().Format(time.RFC3339))
			}
		}
		out.Sessions = append(out.Sessions, info)
	}
	if page.Next != "" {
		out.NextCursor = acp.Ptr(page.Next)
	}
	return out, nil
}

// errInvalid marks errors in a request's parameters.
var errInvalid = errors.New("invalid params")

// checkCwd refuses a thread workspace that is not an absolute path to a
// folder (the protocol requires an absolute path), naming it.
func checkCwd(method, cwd string) error {
	if cwd == "" {
		return nil // older clients send none: the server's own folder
	}
	if !filepath.IsAbs(cwd) {
		return i18n.Errorf("%w: %s: cwd %q is not an absolute path", errInvalid, method, cwd)
	}
	info, err := os.Stat(cwd)
	if err != nil {
		return i18n.Errorf("%w: %s: cwd %q: %v", errInvalid, method, cwd, err)
	}
	if !info.IsDir() {
		return i18n.Errorf("%w: %s: cwd %q is not a folder", errInvalid, method, cwd)
	}
	return nil
}
