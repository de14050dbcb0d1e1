package conversation

import (
	"os"
	"strings"
	"testing"
	"time"
)

// A file written by another program without updated_at or revision (as
// ChatCLI 1.188.0 writes them) is not "written elsewhere" merely because it
// was loaded; a later rewrite by that program still is.
func TestFileWithoutUpdatedAtIsAdoptedOnlyWhenItChanges(t *testing.T) {
	f := newFixture(t)
	write := func(name, doc string, mtime time.Time) {
		t.Helper()
		p, err := f.store.Path(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	first := `{"version":2,"title":"t","chat_history":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`
	write("demo1", first, time.Date(2026, 11, 30, 6, 50, 8, 0, time.UTC))
	write("demo2", first, time.Date(2026, 11, 30, 6, 50, 8, 0, time.UTC))
	e := f.engine(nil)
	if _, _, err := e.Attach("demo1"); err != nil {
		t.Fatal(err)
	}
	turn(t, e, "next")
	for _, n := range f.notices {
		if strings.Contains(n, "adopted") {
			t.Fatalf("nothing was written elsewhere, yet: %q", n)
		}
	}

	e2 := f.engine(nil)
	if _, _, err := e2.Attach("demo2"); err != nil {
		t.Fatal(err)
	}
	write("demo2", `{"version":2,"title":"t","chat_history":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"},`+
		`{"role":"user","content":"from the other program"},{"role":"assistant","content":"ok"}]}`,
		time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC))
	turn(t, e2, "after")
	if len(f.notices) == 0 || !strings.Contains(f.notices[len(f.notices)-1], "adopted") {
		t.Fatalf("a rewrite by the other program must be adopted: %v", f.notices)
	}
	if s, err := f.store.Load("demo2"); err != nil || len(s.History) != 6 || s.History[2].Content != "from the other program" {
		t.Fatalf("load: %v %+v", err, s)
	}
}
