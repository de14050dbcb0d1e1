package acpserver

import (
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// session/load and the /session verbs of a prompt refuse the machine
// prefixes for names a person gives; nothing is written under them.
func TestMachinePrefixesAreRefused(t *testing.T) {
	h := start(t, nil, true)
	id := h.newSession()
	h.mustPrompt(id, "hello")
	for _, name := range []string{"autosave-mine", "mcp-mine"} {
		_, err := h.conn.LoadSession(ctx(t), acp.LoadSessionRequest{SessionId: acp.SessionId(name), Cwd: "/tmp", McpServers: []acp.McpServer{}})
		rpcError(t, err, codeInvalidParams, name)
		for _, line := range []string{"/session save " + name, "/session fork " + name, "/session attach " + name} {
			_, _, err := h.prompt(id, line)
			rpcError(t, err, codeInvalidParams, "reserved")
		}
		if h.store.Exists(name) {
			t.Fatalf("%s was written", name)
		}
	}
}
