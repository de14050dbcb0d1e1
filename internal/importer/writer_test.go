package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/session"
)

type fixture struct {
	home string
	st   *session.Store
	rec  *Record
	w    *Writer
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	st.SetJournalDir(filepath.Join(home, "transcripts"))
	rec, err := OpenRecord(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	return &fixture{home, st, rec, &Writer{Store: st, JournalDir: filepath.Join(home, "transcripts"), Record: rec, Now: time.Now}}
}

// loseRecord deletes the import record, as if the run that wrote the
// sessions had stopped before writing it, and opens a new one.
func (f *fixture) loseRecord(t *testing.T) {
	t.Helper()
	f.rec.Close()
	if err := os.Remove(filepath.Join(f.home, RecordFileName)); err != nil {
		t.Fatal(err)
	}
	rec, err := OpenRecord(f.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	f.rec, f.w.Record = rec, rec
}

func (f *fixture) importFile(t *testing.T, src Source, path string) Outcome {
	t.Helper()
	c, _ := readOne(t, src, path)
	out, err := f.w.Import(src.Prefix, c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// copyFile copies a fixture to a temporary folder, to grow it.
func copyFile(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dst
}

func appendLines(t *testing.T, path, lines string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		t.Fatal(err)
	}
}

// Every tool: the first import makes one session with its journal, a
// second adds nothing and leaves the file byte-identical.
func TestImportTwiceAddsNothing(t *testing.T) {
	for _, tc := range []struct {
		src  Source
		path string
	}{
		{claudeCode, "testdata/claude-code/55550000-0000-4000-8000-000000000001.jsonl"},
		{codex, "testdata/codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"},
		{gemini, "testdata/gemini/session-2026-02-03T09-15-7c1e2f3a.json"},
		{opencode, "testdata/opencode/ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT.json"},
	} {
		t.Run(tc.src.Name, func(t *testing.T) {
			f := newFixture(t)
			c, _ := readOne(t, tc.src, tc.path)
			first := f.importFile(t, tc.src, tc.path)
			if !first.Created || first.Added != len(c.Messages) {
				t.Fatalf("first import %+v, want created with %d messages", first, len(c.Messages))
			}
			sess, err := f.st.Load(first.Session)
			if err != nil {
				t.Fatal(err)
			}
			if len(sess.History) != len(c.Messages) || !sess.UpdatedAt.Equal(c.Updated) || !sess.CreatedAt.Equal(c.Created) {
				t.Errorf("session: %d messages, times %v %v; want %d, %v %v", len(sess.History), sess.CreatedAt, sess.UpdatedAt, len(c.Messages), c.Created, c.Updated)
			}
			msgs, _, _, err := journal.Messages(journal.Path(f.w.JournalDir, sess.TranscriptID), f.st.Key())
			if err != nil || len(msgs) != len(c.Messages) || sess.JournalPos.Seq == 0 {
				t.Errorf("journal %s: %d messages (%v), position %+v", sess.TranscriptID, len(msgs), err, sess.JournalPos)
			}
			p, _ := f.st.Path(first.Session)
			before, _ := os.ReadFile(p)
			second := f.importFile(t, tc.src, tc.path)
			if second.Created || second.Added != 0 || second.Session != first.Session {
				t.Errorf("second import %+v, want nothing added to %s", second, first.Session)
			}
			if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
				t.Error("the second import rewrote the session file")
			}
			names, _ := f.st.Names()
			if len(names) != 1 {
				t.Errorf("sessions %v, want one", names)
			}
		})
	}
}

// Messages the tool added since are appended to the session, after what
// was said in chatcli meanwhile; nothing is written twice.
func TestImportAppendsOnlyWhatIsNew(t *testing.T) {
	f := newFixture(t)
	path := copyFile(t, "testdata/codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl")
	first := f.importFile(t, codex, path)
	appendLines(t, path, `{"timestamp":"2026-01-02T04:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"And gamma.txt?"}]}}
{"timestamp":"2026-01-02T04:00:05.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"gamma.txt holds one line."}]}}
`)
	out := f.importFile(t, codex, path)
	if out.Created || out.Added != 2 || out.Session != first.Session {
		t.Fatalf("second import %+v, want 2 added to %s", out, first.Session)
	}
	sess, err := f.st.Load(first.Session)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sess.History); n != first.Added+2 || sess.History[n-1].Content != "gamma.txt holds one line." {
		t.Errorf("%d messages, last %q", n, sess.History[n-1].Content)
	}
	if want := time.Date(2026, 1, 2, 4, 0, 5, 0, time.UTC); !sess.UpdatedAt.Equal(want) {
		t.Errorf("updated_at %v, want %v", sess.UpdatedAt, want)
	}
	if again := f.importFile(t, codex, path); again.Added != 0 {
		t.Errorf("third import added %d", again.Added)
	}
	if e, ok := f.rec.Get("codex", "11111111-1111-4111-8111-111111111111"); !ok || e.Messages != first.Added+2 || e.Session != first.Session {
		t.Errorf("record entry %+v", e)
	}
}

// A run that stopped after writing a session but before its record entry
// is finished by the next one, without a second session.
func TestImportAfterALostRecordEntry(t *testing.T) {
	f := newFixture(t)
	path := "testdata/gemini/session-2026-02-03T09-15-7c1e2f3a.json"
	first := f.importFile(t, gemini, path)
	f.loseRecord(t)
	out := f.importFile(t, gemini, path)
	if out.Created || out.Added != 0 || out.Session != first.Session {
		t.Errorf("import after a lost entry %+v", out)
	}
	if names, _ := f.st.Names(); len(names) != 1 {
		t.Errorf("sessions %v", names)
	}
	if err := f.rec.Flush(); err != nil {
		t.Fatal(err)
	}
	var d recordDocument
	data, _ := os.ReadFile(f.rec.Path())
	if json.Unmarshal(data, &d) != nil || d.Conversations["gemini/7c1e2f3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b"].Session != first.Session {
		t.Errorf("record %s", data)
	}
}

// A dry run writes nothing: no session, no journal, no record.
func TestImportDryRunWritesNothing(t *testing.T) {
	f := newFixture(t)
	f.w.DryRun = true
	out := f.importFile(t, opencode, "testdata/opencode/ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT.json")
	if !out.Created || out.Added == 0 || out.Session != "opencode-fix-the-login-bug-mn0pr5st" {
		t.Errorf("dry run %+v", out)
	}
	for _, p := range []string{"sessions", "transcripts", RecordFileName} {
		entries, _ := os.ReadDir(filepath.Join(f.home, p))
		if _, err := os.Stat(filepath.Join(f.home, p)); err == nil && (p == RecordFileName || len(entries) > 0) {
			t.Errorf("dry run wrote %s", p)
		}
	}
}

// A damaged record is refused, naming the file, and left as it was.
func TestDamagedRecordIsRefused(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, RecordFileName)
	os.WriteFile(p, []byte(`{"version":1,`), 0o600)
	if _, err := OpenRecord(home); err == nil || !bytes.Contains([]byte(err.Error()), []byte(p)) {
		t.Fatalf("error %v does not name %s", err, p)
	}
	if data, _ := os.ReadFile(p); string(data) != `{"version":1,` {
		t.Error("the damaged record was changed")
	}
}

// A name taken by a session of the user's gets a number.
func TestImportNameTaken(t *testing.T) {
	f := newFixture(t)
	name := "opencode-fix-the-login-bug-mn0pr5st"
	if err := f.st.Create(name, &session.Session{}); err != nil {
		t.Fatal(err)
	}
	out := f.importFile(t, opencode, "testdata/opencode/ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT.json")
	if out.Session != name+"-2" {
		t.Errorf("session %q, want %q", out.Session, name+"-2")
	}
}

// A run that appended to a session but lost its record update appends
// nothing again.
func TestImportAfterALostRecordUpdate(t *testing.T) {
	f := newFixture(t)
	path := copyFile(t, "testdata/claude-code/55550000-0000-4000-8000-000000000001.jsonl")
	first := f.importFile(t, claudeCode, path)
	old, _ := f.rec.Get("claude-code", "55550000-0000-4000-8000-000000000001")
	appendLines(t, path, `{"type":"user","sessionId":"55550000-0000-4000-8000-000000000001","timestamp":"2026-06-15T11:00:00Z","message":{"role":"user","content":"thanks"}}
`)
	if out := f.importFile(t, claudeCode, path); out.Added != 1 {
		t.Fatalf("grown import %+v", out)
	}
	if err := f.rec.Put("claude-code", "55550000-0000-4000-8000-000000000001", old); err != nil {
		t.Fatal(err)
	}
	if out := f.importFile(t, claudeCode, path); out.Added != 0 {
		t.Errorf("import after a lost update %+v", out)
	}
	sess, _ := f.st.Load(first.Session)
	if n := len(sess.History); n != first.Added+1 {
		t.Errorf("%d messages, want %d", n, first.Added+1)
	}
}

// Close writes the entries gathered since the last write.
func TestRecordCloseWritesWhatWasPut(t *testing.T) {
	home := t.TempDir()
	rec, err := OpenRecord(home)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recordFlushEvery + 3 {
		if err := rec.Put("codex", fmt.Sprint(i), Entry{Session: fmt.Sprint("s", i), Messages: i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenRecord(home)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if e, ok := again.Get("codex", fmt.Sprint(recordFlushEvery+2)); !ok || e.Messages != recordFlushEvery+2 {
		t.Errorf("entry after Close: %+v %v", e, ok)
	}
}

// A conversation imported under a numbered name (its base name was taken)
// whose record entry was lost is found again: no second session.
func TestImportNameTakenAfterALostRecordEntry(t *testing.T) {
	f := newFixture(t)
	name := "opencode-fix-the-login-bug-mn0pr5st"
	if err := f.st.Create(name, &session.Session{}); err != nil {
		t.Fatal(err)
	}
	path := "testdata/opencode/ses_4f2a9c1e7b3dXyZ8qLmN0pR5sT.json"
	first := f.importFile(t, opencode, path)
	rec, err := OpenRecord(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	f.w.Record = rec
	out := f.importFile(t, opencode, path)
	if out.Created || out.Added != 0 || out.Session != first.Session {
		t.Errorf("import after a lost entry %+v, first %+v", out, first)
	}
	if names, _ := f.st.Names(); len(names) != 2 {
		t.Errorf("sessions %v", names)
	}
}

// A run that appended messages Repair changed (a tool result without its
// call becomes a note) but lost its record update appends nothing again.
func TestImportAfterALostRecordUpdateOfRepairedMessages(t *testing.T) {
	f := newFixture(t)
	path := copyFile(t, "testdata/claude-code/55550000-0000-4000-8000-000000000001.jsonl")
	first := f.importFile(t, claudeCode, path)
	old, _ := f.rec.Get("claude-code", "55550000-0000-4000-8000-000000000001")
	appendLines(t, path, `{"type":"user","sessionId":"55550000-0000-4000-8000-000000000001","timestamp":"2026-06-15T11:00:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_nowhere","content":"stray output"}]}}
`)
	out := f.importFile(t, claudeCode, path)
	if out.Added != 1 || len(out.Fixes) == 0 {
		t.Fatalf("grown import %+v, want one message added and repaired", out)
	}
	sess, _ := f.st.Load(first.Session)
	n := len(sess.History)
	if err := f.rec.Put("claude-code", "55550000-0000-4000-8000-000000000001", old); err != nil {
		t.Fatal(err)
	}
	if out := f.importFile(t, claudeCode, path); out.Added != 0 {
		t.Errorf("import after a lost update %+v", out)
	}
	sess, _ = f.st.Load(first.Session)
	if len(sess.History) != n {
		t.Errorf("%d messages, want %d", len(sess.History), n)
	}
}
