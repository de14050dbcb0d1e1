package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
)

// MirrorPrefix starts the names of the sessions live MCP conversations are
// mirrored to (one of conversation.MachinePrefixes).
const MirrorPrefix = "mcp-"

// Options configure a Server.
type Options struct {
	// Engine is the live conversation; the server owns it from now on.
	Engine *conversation.Engine
	// Mirror turns the mcp-<ID> mirror of unbound conversations on.
	Mirror bool
	// ID names the mirrors: mcp-<ID>, then mcp-<ID>-2, … It must make a
	// valid session name; NewID makes one.
	ID string
	// OnMirror, when set, is told the name of each mirror before it is
	// first written, so the surface can mark it open (retention then never
	// removes it while the server runs).
	OnMirror func(name string)
	// Log receives notices, one line each; nil discards them. It must
	// never write to the protocol channel.
	Log func(string)
	// Lang is the language of the notices (nil: English).
	Lang *i18n.Printer
	// Version is the server version reported at initialization.
	Version string
}

// Server serves the chat and manage_session tools over one engine.
type Server struct {
	o   Options
	e   *conversation.Engine
	mcp *mcp.Server

	// mu serialises tool calls: the engine is not safe for concurrent use.
	mu sync.Mutex
	// mirror is the live conversation's mirror name, "" until the first
	// mirror of this conversation; mirrors counts the names handed out.
	mirror  string
	mirrors int
	// stop is Run's context (nil before Run): when it ends, the turn in
	// flight is cancelled.
	stop context.Context
}

// NewID returns a mirror id: the UTC time of now as YYYYMMDD-HHMMSS and
// four random hex digits ("20261130-090000-a3f9"), a valid session name
// part holding no ':' or other characters some file systems refuse.
func NewID(now time.Time) string {
	var b [2]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// New returns a Server with both tools registered on an mcp.Server named
// "chatcli".
func New(o Options) *Server {
	if o.Log == nil {
		o.Log = func(string) {}
	}
	s := &Server{o: o, e: o.Engine}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "chatcli", Title: "chatcli sessions", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	mcp.AddTool(s.mcp, chatTool(), s.chat)
	mcp.AddTool(s.mcp, sessionTool(), s.manage)
	addChatCLITools(s)
	return s
}

const instructions = "chatcli keeps conversations as durable, named sessions shared with its terminal REPL. " +
	"Use chat to talk (optionally on a named session) and manage_session to save, load, list, fork, " +
	"rename, export or search sessions."

// MCP is the underlying SDK server (for transports other than Run's).
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one client over t until the client disconnects (for stdio:
// stdin reaches EOF) or ctx ends; see mcp.Server.Run. When ctx ends (the
// process got SIGTERM), a turn in flight is cancelled as the client's
// cancellation would (the prompt stays, marked unanswered): the SDK waits
// for in-flight calls before it closes. Call Close after.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	s.mu.Lock()
	s.stop = ctx
	s.mu.Unlock()
	return s.mcp.Run(ctx, t)
}

// callContext returns ctx, also cancelled when Run's context ends.
func (s *Server) callContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if s.stop == nil {
		return ctx, cancel
	}
	stop := context.AfterFunc(s.stop, cancel)
	return ctx, func() { stop(); cancel() }
}

// Close keeps what the live conversation holds that is saved nowhere: a
// bound conversation is written through, an unbound one mirrored (when the
// mirror is on). Errors name the session that could not be written.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.e.Bound() != "" {
		_, err := s.e.Close(false)
		return err
	}
	if !s.e.Dirty() {
		return nil
	}
	_, err := s.mirrorNow()
	return err
}

// mirrorNow mirrors the unbound live conversation, when the mirror is on
// and there is something to keep, and returns the mirror's name ("" when
// none was written).
func (s *Server) mirrorNow() (string, error) {
	if !s.o.Mirror || s.e.Bound() != "" || len(s.e.History()) == 0 {
		return "", nil
	}
	if s.mirror == "" {
		s.mirrors++
		s.mirror = MirrorPrefix + s.o.ID
		if s.mirrors > 1 {
			s.mirror = fmt.Sprintf("%s-%d", s.mirror, s.mirrors)
		}
		if s.o.OnMirror != nil {
			s.o.OnMirror(s.mirror)
		}
	}
	if err := s.e.Mirror(s.mirror); err != nil {
		return "", err
	}
	return s.mirror, nil
}

// newConversation forgets the mirror name: the next mirror is another
// session, the previous one keeps what it holds.
func (s *Server) newConversation() { s.mirror = "" }

// savedIn names where the live conversation is kept: the bound session,
// else its mirror ("" when neither).
func (s *Server) savedIn() string {
	if b := s.e.Bound(); b != "" {
		return b
	}
	if s.e.Dirty() {
		return ""
	}
	return s.mirror
}

// toolError is the error a tool returns: the SDK sends it as a result with
// IsError set and this one line as its text.
func toolError(err error) error {
	return errors.New(command.ErrorLine(err))
}
