package acpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
)

// MirrorPrefix starts the name an unbound ACP session is mirrored to:
// MirrorPrefix + sessionId (DESIGN.md §5).
const MirrorPrefix = "mcp-"

// ListPageSize is the number of sessions one session/list answer holds.
const ListPageSize = 200

// Options configure a Server.
type Options struct {
	// NewEngine builds the engine of one ACP session (the REPL's factory)
	// whose tools and file checkpoints work in folder cwd, the thread's
	// workspace (session/new's and session/load's cwd); "" when there is
	// none (session/list only reads the store). Required.
	NewEngine func(cwd string) (*conversation.Engine, error)
	// Folders, when set, returns the folder each session was last used in
	// (by name), which session/list reports as its cwd.
	Folders func() map[string]string
	// Config is what /config shows; may be nil.
	Config *config.Config
	// Mirror turns on the mcp-<sessionId> copy of unbound sessions.
	Mirror bool
	// Notify receives notices, one line each (stderr in the CLI); nil
	// discards them. Called from several goroutines.
	Notify func(string)
	// Lang is the language of the notices, of what slash commands print
	// and of the errors' reasons (nil: English).
	Lang *i18n.Printer
	// Version is reported as agentInfo.version.
	Version string
	// WorkDir is the cwd session/list reports when the client gives none.
	WorkDir string
	// NewID makes session ids; nil means 16 random hex digits.
	NewID func() string
}

// Server is one ACP agent connection's state: the sessions it opened.
// Its methods implement acp.Agent and acp.AgentLoader and are called by
// the SDK from several goroutines.
type Server struct {
	o    Options
	conn *acp.AgentSideConnection

	mu       sync.Mutex
	sessions map[acp.SessionId]*acpSession
}

var (
	_ acp.Agent       = (*Server)(nil)
	_ acp.AgentLoader = (*Server)(nil)
)

// New returns a server; Serve connects it.
func New(o Options) *Server {
	if o.Notify == nil {
		o.Notify = func(string) {}
	}
	if o.NewID == nil {
		o.NewID = randomID
	}
	return &Server{o: o, sessions: map[acp.SessionId]*acpSession{}}
}

// Serve speaks ACP on in/out until in reaches EOF or ctx is cancelled, then
// closes every session's engine (see the package doc) and returns. Errors
// from closing are reported through Notify; the returned error is ctx's
// when it ended the connection, else nil.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := newReplyWriter(out)
	s.conn = acp.NewAgentSideConnection(s, w, newFraming(in, w, s.o.Notify, s.o.Lang))
	s.conn.SetLogger(slog.New(slog.NewTextHandler(notifyWriter{s.o.Notify}, &slog.HandlerOptions{Level: slog.LevelWarn})))
	var err error
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.closeAll()
	return err
}

// closeAll closes every session's engine, waiting for running prompts.
func (s *Server) closeAll() {
	s.mu.Lock()
	all := s.sessions
	s.sessions = map[acp.SessionId]*acpSession{}
	s.mu.Unlock()
	for _, ss := range all {
		ss.close(s.o)
	}
}

// Initialize answers with protocol version 1 and the capabilities in the
// package doc.
func (s *Server) Initialize(_ context.Context, _ acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentCapabilities: acp.AgentCapabilities{
			LoadSession:         true,
			PromptCapabilities:  acp.PromptCapabilities{},
			SessionCapabilities: acp.SessionCapabilities{List: &acp.SessionListCapabilities{}},
		},
		AgentInfo:   &acp.Implementation{Name: "chatcli", Title: acp.Ptr("chatcli"), Version: s.o.Version},
		AuthMethods: []acp.AuthMethod{},
	}, nil
}

// Authenticate accepts any method: chatcli needs no ACP-level login.
func (s *Server) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

// NewSession starts an empty, unbound conversation under a new id, whose
// tools work in p.Cwd.
func (s *Server) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	if err := checkCwd("session/new", p.Cwd); err != nil {
		return acp.NewSessionResponse{}, s.reqError(err)
	}
	e, err := s.o.NewEngine(p.Cwd)
	if err != nil {
		return acp.NewSessionResponse{}, s.reqError(err)
	}
	id := acp.SessionId(s.o.NewID())
	s.put(id, &acpSession{id: id, engine: e})
	return acp.NewSessionResponse{SessionId: id}, nil
}

// put registers a session, closing one it replaces.
func (s *Server) put(id acp.SessionId, ss *acpSession) {
	s.mu.Lock()
	old := s.sessions[id]
	s.sessions[id] = ss
	s.mu.Unlock()
	if old != nil {
		old.close(s.o)
	}
}

// get returns the session id names, or a resource-not-found error.
func (s *Server) get(id acp.SessionId) (*acpSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.sessions[id]; ss != nil {
		return ss, nil
	}
	return nil, notFound(s.o.Lang.Sprintf("no ACP session %s in this connection (session/new or session/load first)", id))
}

// Cancel is session/cancel; the SDK has already cancelled the running
// prompt's context by the time it calls this.
func (s *Server) Cancel(context.Context, acp.CancelNotification) error { return nil }

// CloseSession is not advertised; it answers method-not-found.
func (s *Server) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionClose)
}

// ResumeSession is not advertised; it answers method-not-found.
func (s *Server) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

// SetSessionConfigOption is not advertised; it answers method-not-found.
func (s *Server) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

// SetSessionMode is not advertised; it answers method-not-found.
func (s *Server) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetMode)
}

func randomID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// notifyWriter turns the SDK's log lines into notices.
type notifyWriter struct{ notify func(string) }

func (w notifyWriter) Write(p []byte) (int, error) {
	w.notify("acp: " + string(trimNewline(p)))
	return len(p), nil
}

func trimNewline(p []byte) []byte {
	for len(p) > 0 && (p[len(p)-1] == '\n' || p[len(p)-1] == '\r') {
		p = p[:len(p)-1]
	}
	return p
}
