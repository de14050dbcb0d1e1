package mcpserver

import "testing"

// Every MCP tool that takes a name a person gives refuses the machine
// prefixes, and nothing is written under such a name.
func TestMachinePrefixesAreRefused(t *testing.T) {
	f := newFixture(t, setup{noMirror: true})
	f.chat(a{"prompt": "one"})
	f.manage(a{"action": "save", "name": "keep"})
	for _, name := range []string{"autosave-mine", "mcp-mine"} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"manage_session", a{"action": "save", "name": name}},
			{"manage_session", a{"action": "fork", "name": name}},
			{"manage_session", a{"action": "attach", "name": name}},
			{"manage_session", a{"action": "rename", "name": "keep", "new_name": name}},
			{"chat", a{"prompt": "x", "session": name}},
			{"ask_chatcli", a{"prompt": "x", "session": name}},
			{"agent_task", a{"task": "x", "session": name}},
		} {
			f.fails(c.tool, c.args, "reserved", name)
			if f.store.Exists(name) {
				t.Fatalf("%s %v wrote %s", c.tool, c.args, name)
			}
		}
	}
}
