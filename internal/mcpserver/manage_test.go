package mcpserver

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

type a = map[string]any

func TestEveryActionAsTheSessionCommandsDoIt(t *testing.T) {
	f := newFixture(t, setup{})
	f.chat(a{"prompt": "about the database index"})

	out := f.manage(a{"action": "save", "name": "alpha"})
	if out.Bound != "alpha" || !strings.Contains(out.Text, `Saved 2 messages as session "alpha"`) || f.users("alpha") != "about the database index" {
		t.Fatalf("save: %+v", out)
	}
	out = f.manage(a{"action": "status"})
	if !strings.Contains(out.Text, `Bound to session "alpha" (2 messages)`) || !strings.Contains(out.Text, "Provider offline") {
		t.Fatalf("status: %q", out.Text)
	}
	f.chat(a{"prompt": "second"})
	if f.users("alpha") != "about the database index,second" {
		t.Fatalf("write-through after save: %q", f.users("alpha"))
	}

	out = f.manage(a{"action": "fork", "name": "beta"})
	if out.Bound != "beta" || f.users("beta") != f.users("alpha") || !strings.Contains(out.Text, `Forked "alpha" into "beta"`) {
		t.Fatalf("fork: %+v", out)
	}
	out = f.manage(a{"action": "rename", "name": "beta", "new_name": "gamma"})
	if out.Bound != "gamma" || f.store.Exists("beta") || !f.store.Exists("gamma") || out.Text != "Renamed \"beta\" to \"gamma\".\n" {
		t.Fatalf("rename of the bound session: %+v", out)
	}
	out = f.manage(a{"action": "rename", "new_name": "delta"}) // name defaults to the bound session
	if out.Bound != "delta" || f.store.Exists("gamma") {
		t.Fatalf("rename without name: %+v", out)
	}

	out = f.manage(a{"action": "list"})
	if len(out.Sessions) != 3 || !strings.Contains(out.Text, "delta *") {
		t.Fatalf("list: %+v", out)
	}
	names := map[string]SessionInfo{}
	for _, s := range out.Sessions {
		names[s.Name] = s
	}
	if names["alpha"].Messages != 4 || names["alpha"].Title != "about the database index" || names["alpha"].UpdatedAt == "" || names[mirror1].Messages != 2 {
		t.Fatalf("list rows: %+v", out.Sessions)
	}

	out = f.manage(a{"action": "detach"})
	if out.Bound != "" || !strings.Contains(out.Text, `Detached from "delta"`) || out.Messages != 4 {
		t.Fatalf("detach: %+v", out)
	}
	out = f.manage(a{"action": "attach", "name": "alpha"})
	if out.Bound != "alpha" || out.Messages != 4 || !strings.Contains(out.Text, `Attached to session "alpha" (4 messages)`) {
		t.Fatalf("attach: %+v", out)
	}

	out = f.manage(a{"action": "export", "format": "md"})
	if !strings.Contains(out.Text, "about the database index") || !strings.Contains(out.Text, "# ") {
		t.Fatalf("export md: %q", out.Text)
	}
	out = f.manage(a{"action": "export", "format": "jsonl", "name": "delta"})
	lines := strings.Split(strings.TrimSpace(out.Text), "\n")
	var first struct{ Role, Content string }
	if len(lines) != 4 || json.Unmarshal([]byte(lines[0]), &first) != nil || first.Content != "about the database index" {
		t.Fatalf("export jsonl of delta: %q", out.Text)
	}

	out = f.manage(a{"action": "search", "query": "database"})
	if len(out.Hits) == 0 || !strings.Contains(out.Hits[0].Snippet, "database") || out.Hits[0].Position < 1 || !strings.Contains(out.Text, "database") {
		t.Fatalf("search: %+v", out)
	}
	out = f.manage(a{"action": "search", "query": "zzzunfound"})
	if len(out.Hits) != 0 || !strings.Contains(out.Text, "No matches.") {
		t.Fatalf("search without hits: %+v", out)
	}

	out = f.manage(a{"action": "new"})
	if out.Bound != "" || out.Messages != 0 || !strings.Contains(out.Text, "Started a new conversation.") {
		t.Fatalf("new: %+v", out)
	}
	out = f.manage(a{"action": "load", "name": "delta"})
	if out.Bound != "delta" || out.Messages != 4 || !strings.Contains(out.Text, `Loaded session "delta" (4 messages)`) {
		t.Fatalf("load: %+v", out)
	}

	out = f.manage(a{"action": "delete", "name": "delta", "yes": true})
	if out.Bound != "" || out.Messages != 0 || f.store.Exists("delta") || !strings.Contains(out.Text, "moved to the trash") ||
		!strings.Contains(out.Text, "It was the active session") {
		t.Fatalf("delete of the bound session: %+v", out)
	}
	if err := f.store.Restore("delta"); err != nil {
		t.Fatalf("the deleted session is not in the trash: %v", err)
	}

	out = f.manage(a{"action": "clear"})
	if !strings.Contains(out.Text, "already empty") {
		t.Fatalf("clear of an empty conversation: %+v", out)
	}
}

func TestClearMirrorsBeforeDiscarding(t *testing.T) {
	f := newFixture(t, setup{})
	f.chat(a{"prompt": "one"})
	f.manage(a{"action": "save", "name": "named"})
	f.manage(a{"action": "detach"})
	// Unbound again, and nothing mirrored yet since detaching.
	out := f.manage(a{"action": "clear"})
	mirror2 := mirror1 + "-2"
	if out.Mirror != mirror2 || out.Messages != 0 || out.Bound != "" || !strings.Contains(out.Text, `session "`+mirror2+`" keeps it`) {
		t.Fatalf("clear: %+v", out)
	}
	if f.users(mirror2) != "one" {
		t.Fatalf("mirror written by clear: %q", f.users(mirror2))
	}
	// The next conversation gets its own mirror; the previous one is kept.
	c := f.chat(a{"prompt": "fresh"})
	if c.Session != mirror1+"-3" || f.users(mirror1+"-3") != "fresh" || f.users(mirror2) != "one" || f.users(mirror1) != "one" {
		t.Fatalf("after clear: %+v; sessions %q", c, f.names())
	}
}

func TestClearWithTheMirrorOffKeepsAnAutosave(t *testing.T) {
	f := newFixture(t, setup{noMirror: true})
	f.chat(a{"prompt": "one"})
	out := f.manage(a{"action": "clear"})
	if out.Mirror != "" || out.Messages != 0 || !strings.Contains(out.Text, `session "autosave-`) || !strings.HasPrefix(f.names(), "autosave-") {
		t.Fatalf("clear, mirror off: %+v; sessions %q", out, f.names())
	}
}

func TestSessionActionErrorsAreToolErrors(t *testing.T) {
	f := newFixture(t, setup{})
	f.chat(a{"prompt": "one"})
	f.manage(a{"action": "save", "name": "keep"})
	f.manage(a{"action": "new"})
	f.chat(a{"prompt": "two"})
	before := f.names()

	f.fails("manage_session", a{"action": "load", "name": "missing"}, `"missing"`, "not found")
	f.fails("manage_session", a{"action": "attach", "name": "../../x"}, "../../x")
	f.fails("manage_session", a{"action": "save", "name": "a b"}, "a b")
	f.fails("manage_session", a{"action": "save", "name": "keep"}, `"keep"`, "yes")
	f.fails("manage_session", a{"action": "save", "name": "mcp-mine"}, "reserved")
	f.fails("manage_session", a{"action": "delete", "name": "keep"}, "needs confirmation", "yes")
	f.fails("manage_session", a{"action": "delete", "name": "missing", "yes": true}, `"missing"`)
	f.fails("manage_session", a{"action": "fork", "name": "keep"}, `"keep"`)
	f.fails("manage_session", a{"action": "rename", "name": "keep", "new_name": "autosave-x"}, "reserved")
	f.fails("manage_session", a{"action": "rename", "new_name": "x"}, "needs name")
	f.fails("manage_session", a{"action": "rename", "name": "keep"}, "new_name")
	f.fails("manage_session", a{"action": "load"}, "needs name")
	f.fails("manage_session", a{"action": "search"}, "needs query")
	f.fails("manage_session", a{"action": "export"}, "format")
	f.fails("manage_session", a{"action": "export", "format": "pdf"}, "format")
	f.fails("manage_session", a{"action": "export", "format": "md", "name": "missing"}, `"missing"`)
	f.fails("manage_session", a{"action": "explode"}, "action")
	f.fails("manage_session", a{"name": "x"}, "action")

	if got := f.names(); got != before {
		t.Fatalf("failed actions changed the store: %q → %q", before, got)
	}
	if f.users("keep") != "one" {
		t.Fatal("a refused save touched the session")
	}
	// save with yes replaces.
	out := f.manage(a{"action": "save", "name": "keep", "yes": true})
	if out.Bound != "keep" || f.users("keep") != "two" {
		t.Fatalf("save with yes: %+v, %q", out, f.users("keep"))
	}
}

func TestUnreadableSessionIsNamedAndLeftAlone(t *testing.T) {
	f := newFixture(t, setup{})
	p, _ := f.store.Path("broken")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f.fails("manage_session", a{"action": "load", "name": "broken"}, p)
	out := f.manage(a{"action": "list"})
	if len(out.Sessions) != 1 || out.Sessions[0].Error == "" {
		t.Fatalf("list with an unreadable file: %+v", out.Sessions)
	}
	f.chat(a{"prompt": "x"})
	f.fails("manage_session", a{"action": "save", "name": "broken", "yes": true}, p)
	if data, err := os.ReadFile(p); err != nil || len(data) != 0 {
		t.Fatal("the unreadable file was changed")
	}
	if _, err := f.store.Load("broken"); err == nil || !strings.Contains(err.Error(), p) {
		t.Fatal(err)
	}
}

func TestCloseKeepsWhatIsUnsaved(t *testing.T) {
	f := newFixture(t, setup{})
	f.chat(a{"prompt": "x", "session": "bound"})
	if err := f.srv.Close(); err != nil {
		t.Fatal(err)
	}
	if f.users("bound") != "x" || strings.Contains(f.names(), "mcp-") || strings.Contains(f.names(), "autosave-") {
		t.Fatalf("close: %q", f.names())
	}
}
