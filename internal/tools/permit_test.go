package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// asker records every Action it is asked about and answers with d, err.
type asker struct {
	d     Decision
	err   error
	asked []Action
}

func (a *asker) permit(_ context.Context, act Action) (Decision, error) {
	a.asked = append(a.asked, act)
	return a.d, a.err
}

// changes are the three kinds of guarded calls, each against a workspace
// holding f.txt = "one two two\n".
var changes = []struct {
	tool    string
	args    map[string]any
	summary string
}{
	{"write_file", map[string]any{"path": "f.txt", "content": "new"}, "write f.txt (3 B, replaces 12 B)"},
	{"write_file", map[string]any{"path": "d/g.txt", "content": strings.Repeat("x", 1229)}, "write d/g.txt (1.2 KB, new file)"},
	{"edit_file", map[string]any{"path": "f.txt", "old_string": "one", "new_string": "1"}, "edit f.txt (replace 1 match)"},
	{"edit_file", map[string]any{"path": "f.txt", "old_string": "two", "new_string": "2", "replace_all": true}, "edit f.txt (replace all 2 matches)"},
	{"run_command", map[string]any{"command": "echo hi > f.txt"}, "run: echo hi > f.txt"},
}

const original = "one two two\n"

func TestRefusedChangesLeaveTheWorkspaceAlone(t *testing.T) {
	refusals := []struct {
		name string
		opts func(a *asker) Options
		want string
	}{
		{"declined", func(a *asker) Options { a.d = DecisionNo; return Options{Permit: a.permit} }, "the user declined"},
		{"permit error", func(a *asker) Options {
			a.err = errors.New("input is not a terminal")
			return Options{Permit: a.permit}
		}, "input is not a terminal"},
		{"no permit", func(*asker) Options { return Options{} }, "no way to ask for permission"},
		{"unknown decision", func(a *asker) Options { a.d = Decision(7); return Options{Permit: a.permit} }, "the user declined"},
	}
	for _, r := range refusals {
		for _, c := range changes {
			t.Run(r.name+" "+c.summary, func(t *testing.T) {
				a := &asker{}
				o := r.opts(a)
				hooked := false
				o.Hooks = Hooks{BeforeChange: func(string) error { hooked = true; return nil },
					Command: func(string) { hooked = true }}
				b := newBox(t, o)
				put(t, b.Root(), map[string]string{"f.txt": original})
				got, isErr := run(t, b, c.tool, c.args)
				if !isErr || !strings.Contains(got, r.want) || !strings.Contains(got, c.summary) {
					t.Fatalf("%v %q", isErr, got)
				}
				if s := readString(t, filepath.Join(b.Root(), "f.txt")); s != original {
					t.Fatalf("f.txt changed: %q", s)
				}
				if _, err := os.Stat(filepath.Join(b.Root(), "d")); !os.IsNotExist(err) {
					t.Fatal("directory created")
				}
				if hooked {
					t.Fatal("a hook ran for a refused change")
				}
				if o.Permit != nil && (len(a.asked) != 1 || a.asked[0].Summary != c.summary || a.asked[0].Tool != c.tool) {
					t.Fatalf("asked %+v", a.asked)
				}
			})
		}
	}
}

func TestActionFields(t *testing.T) {
	a := &asker{d: DecisionYes}
	b := newBox(t, Options{Permit: a.permit})
	put(t, b.Root(), map[string]string{"f.txt": original})
	run(t, b, "edit_file", map[string]any{"path": "f.txt", "old_string": "one", "new_string": "1"})
	run(t, b, "run_command", map[string]any{"command": "true\necho  second line"})
	if len(a.asked) != 2 {
		t.Fatalf("%+v", a.asked)
	}
	if got := a.asked[0]; got.Path != filepath.Join(b.realRoot, "f.txt") || got.Command != "" {
		t.Errorf("edit action %+v", got)
	}
	if got := a.asked[1]; got.Command != "true\necho  second line" || got.Summary != "run: true echo  second line" || got.Path != "" {
		t.Errorf("run action %+v", got)
	}
}

func TestAlwaysIsRememberedPerTool(t *testing.T) {
	a := &asker{d: DecisionAlways}
	b := newBox(t, Options{Permit: a.permit})
	for i := range 3 {
		if got, isErr := run(t, b, "write_file", map[string]any{"path": "f.txt", "content": strings.Repeat("x", i)}); isErr {
			t.Fatal(got)
		}
	}
	if len(a.asked) != 1 {
		t.Fatalf("asked %d times for write_file", len(a.asked))
	}
	a.d = DecisionNo
	if got, isErr := run(t, b, "edit_file", map[string]any{"path": "f.txt", "old_string": "xx", "new_string": "y"}); !isErr {
		t.Fatalf("edit_file was not asked about: %q", got)
	}
	if len(a.asked) != 2 || a.asked[1].Tool != "edit_file" {
		t.Fatalf("%+v", a.asked)
	}
	// A second Box starts with nothing remembered.
	b2 := newBox(t, Options{Root: b.Root(), Permit: a.permit})
	if _, isErr := run(t, b2, "write_file", map[string]any{"path": "f.txt", "content": "z"}); !isErr {
		t.Fatal("a new Box remembered the answer of another")
	}
}

func TestYesIsAskedEveryTime(t *testing.T) {
	a := &asker{d: DecisionYes}
	b := newBox(t, Options{Permit: a.permit})
	for range 2 {
		if got, isErr := run(t, b, "run_command", map[string]any{"command": "true"}); isErr {
			t.Fatal(got)
		}
	}
	if len(a.asked) != 2 {
		t.Fatalf("asked %d times", len(a.asked))
	}
}

func TestAutoExecNeverAsks(t *testing.T) {
	for _, c := range changes {
		b := newBox(t, Options{AutoExec: true, Permit: func(context.Context, Action) (Decision, error) {
			t.Fatal("asked with AutoExec")
			return DecisionNo, nil
		}})
		put(t, b.Root(), map[string]string{"f.txt": original})
		if got, isErr := run(t, b, c.tool, c.args); isErr {
			t.Fatalf("%s: %q", c.summary, got)
		}
	}
}

func TestHooks(t *testing.T) {
	var events []string
	var b *Box
	b = newBox(t, Options{AutoExec: true, Hooks: Hooks{
		BeforeChange: func(p string) error {
			data, _ := os.ReadFile(p)
			events = append(events, "before "+filepath.Base(p)+" "+string(data))
			return nil
		},
		AfterChange: func(p string) error {
			events = append(events, "after "+filepath.Base(p)+" "+readString(t, p))
			return errors.New("disk full")
		},
		Command: func(c string) { events = append(events, "command "+c) },
	}})
	put(t, b.Root(), map[string]string{"f.txt": "old"})
	got, isErr := run(t, b, "write_file", map[string]any{"path": "f.txt", "content": "new"})
	if isErr || !strings.Contains(got, "disk full") {
		t.Fatalf("a failed AfterChange after the write landed: %v %q", isErr, got)
	}
	run(t, b, "run_command", map[string]any{"command": "true"})
	want := []string{"before f.txt old", "after f.txt new", "command true"}
	if strings.Join(events, "|") != strings.Join(want, "|") {
		t.Fatalf("events %q", events)
	}
}

func TestBeforeChangeErrorAborts(t *testing.T) {
	b := newBox(t, Options{AutoExec: true, Hooks: Hooks{
		BeforeChange: func(string) error { return errors.New("shadow repository locked") },
		AfterChange:  func(string) error { t.Fatal("AfterChange after an aborted change"); return nil },
	}})
	put(t, b.Root(), map[string]string{"f.txt": original})
	for _, c := range changes[:4] {
		got, isErr := run(t, b, c.tool, c.args)
		if !isErr || !strings.Contains(got, "shadow repository locked") || !strings.Contains(got, "was not changed") {
			t.Fatalf("%v %q", isErr, got)
		}
		if s := readString(t, filepath.Join(b.Root(), "f.txt")); s != original {
			t.Fatalf("changed: %q", s)
		}
	}
}

func TestDecisionString(t *testing.T) {
	for d, want := range map[Decision]string{DecisionNo: "no", DecisionYes: "yes", DecisionAlways: "always", 9: "Decision(9)"} {
		if d.String() != want {
			t.Errorf("%d: %q", int(d), d.String())
		}
	}
}
