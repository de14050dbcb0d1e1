// Package gatewaytest builds a gateway.Gateway over a store in a folder
// for the channel packages' tests: engines with the given provider (the
// offline one when nil), mirrors on, and a log that can be read back.
package gatewaytest

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/gateway"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// Log collects log lines; safe for concurrent use.
type Log struct {
	mu    sync.Mutex
	lines []string
}

// Add appends line.
func (l *Log) Add(line string) { l.mu.Lock(); l.lines = append(l.lines, line); l.mu.Unlock() }

// String is every line, one per line.
func (l *Log) String() string { l.mu.Lock(); defer l.mu.Unlock(); return strings.Join(l.lines, "\n") }

// New returns a gateway on home allowing allow (by channel), its state
// and its log.
func New(t *testing.T, home string, allow map[string]gateway.AllowList, prov provider.Provider) (*gateway.Gateway, *gateway.State, *Log) {
	t.Helper()
	if prov == nil {
		prov = offline.New("")
	}
	st, err := gateway.OpenState(home)
	if err != nil {
		t.Fatal(err)
	}
	log := &Log{}
	g := gateway.New(gateway.Options{State: st, Mirror: true, Allow: allow, Log: log.Add,
		NewEngine: func() (*conversation.Engine, error) {
			store, err := Store(home)
			if err != nil {
				return nil, err
			}
			return conversation.New(conversation.Options{Store: store, Provider: prov, JournalDir: filepath.Join(home, "transcripts")}), nil
		}})
	return g, st, log
}

// Store opens the session store under home.
func Store(home string) (*session.Store, error) {
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		return nil, err
	}
	st.SetJournalDir(filepath.Join(home, "transcripts"))
	return st, nil
}
