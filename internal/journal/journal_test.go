package journal

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/message"
)

func msg(role message.Role, s string) message.Message { return message.Message{Role: role, Content: s} }

func open(t *testing.T, dir, id string) *Journal {
	t.Helper()
	j, w, err := Open(dir, id, noKey)
	if err != nil || len(w) != 0 {
		t.Fatalf("open: %v %v", err, w)
	}
	return j
}

func sync1(t *testing.T, j *Journal, h []message.Message, want int) {
	t.Helper()
	n, err := j.Sync(h, ReasonSync)
	if err != nil || n != want {
		t.Fatalf("sync appended %d (%v), want %d", n, err, want)
	}
}

// messagesOf returns the messages of every message record, in file order.
func messagesOf(t *testing.T, path string) []message.Message {
	t.Helper()
	recs, res, err := ReadAll(path, noKey)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	var out []message.Message
	for _, r := range recs {
		if r.Type == TypeMessage {
			out = append(out, *r.Message)
		}
	}
	return out
}

func TestAppendReopenAppend(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	h := []message.Message{msg("user", "hi"), msg("assistant", "ok")}
	j := open(t, dir, id)
	sync1(t, j, h, 2)
	sync1(t, j, h, 0) // nothing new
	j2 := open(t, dir, id)
	h = append(h, msg("user", "again"), msg("assistant", "ok")) // a second identical "ok"
	sync1(t, j2, h, 2)
	if got := messagesOf(t, j.Path()); !cmp.Equal(got, h) {
		t.Fatalf("journal holds %v", got)
	}
	st, _ := os.Stat(j.Path())
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
}

func TestCompactionAppendsOnlyTheSummaryAndOneRewrite(t *testing.T) {
	j := open(t, t.TempDir(), NewID())
	var h []message.Message
	h = append(h, msg("system", "sys"))
	for i := range 10 {
		h = append(h, msg("user", fmt.Sprint("q", i)), msg("assistant", "ok"))
	}
	sync1(t, j, h, 21)
	summary := msg("user", "[COMPACT — covering 16 earlier messages]")
	compacted := append([]message.Message{h[0], summary}, h[17:]...)
	n, err := j.Sync(compacted, ReasonCompact)
	if err != nil || n != 2 {
		t.Fatalf("compaction appended %d records (%v), want summary + rewrite", n, err)
	}
	recs, _, _ := ReadAll(j.Path(), noKey)
	last := recs[len(recs)-1]
	if last.Type != TypeRewrite || last.Reason != ReasonCompact || !cmp.Equal(last.Hashes, HashHistory(compacted)) {
		t.Fatalf("last record %+v", last)
	}
	// The view survives a reopen: syncing the same history adds nothing.
	sync1(t, open(t, filepath.Dir(j.Path()), j.ID()), compacted, 0)
	// Rewinding to an earlier, already recorded state: only a rewrite.
	n, _ = j.Sync(h[:5], ReasonRewind)
	if n != 1 {
		t.Fatalf("rewind appended %d, want 1", n)
	}
}

func TestHashesAreDistinctForRepeatsAndCoverEveryField(t *testing.T) {
	base := message.Message{Role: "assistant", Content: "ok"}
	variants := []message.Message{base,
		{Role: "user", Content: "ok"},
		{Role: "assistant", Content: "ok", ToolCalls: []message.ToolCall{{ID: "a", Name: "f", Arguments: "{}"}}},
		{Role: "assistant", Content: "ok", ToolCalls: []message.ToolCall{{ID: "b", Name: "f", Arguments: "{}"}}},
		{Role: "assistant", Content: "ok", ToolCalls: []message.ToolCall{{ID: "a", Name: "g", Arguments: "{}"}}},
		{Role: "assistant", Content: "ok", ToolCalls: []message.ToolCall{{ID: "a", Name: "f", Arguments: "{ }"}}},
		{Role: "tool", Content: "ok", ToolCallID: "a"},
		{Role: "tool", Content: "ok", ToolCallID: "b"},
		{Role: "assistant", Content: "ok", Images: []message.Image{message.ParseImageRef("x")}},
	}
	seen := map[string]bool{}
	for _, v := range variants {
		h := HashHistory([]message.Message{v})[0]
		if seen[h] {
			t.Fatalf("collision for %+v", v)
		}
		seen[h] = true
	}
	two := HashHistory([]message.Message{base, base})
	if two[0] == two[1] {
		t.Fatal("two identical messages must stay distinct")
	}
	withMeta := base
	withMeta.Meta = &message.Meta{Unanswered: true}
	if HashHistory([]message.Message{withMeta})[0] != two[0] {
		t.Fatal("meta must not change the hash")
	}
}

func TestTornLastLine(t *testing.T) { // case dur-3
	dir, id := t.TempDir(), NewID()
	j := open(t, dir, id)
	h := []message.Message{msg("user", "a"), msg("assistant", "b")}
	sync1(t, j, h, 2)
	f, _ := os.OpenFile(j.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"role":"user","cont`)
	f.Close()
	j2, w, err := Open(dir, id, noKey)
	if err != nil || len(w) != 1 || w[0].Line != 3 || !strings.Contains(w[0].String(), j.Path()+":3") {
		t.Fatalf("want one warning naming line 3: %v %v", w, err)
	}
	sync1(t, j2, append(h, msg("user", "c")), 1)
	recs, res, _ := ReadAll(j.Path(), noKey)
	if len(recs) != 3 || len(res.Warnings) != 1 || recs[2].Message.Content != "c" {
		t.Fatalf("records %d warnings %v", len(recs), res.Warnings)
	}
	data, _ := os.ReadFile(j.Path())
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 4 || lines[2] != `{"role":"user","cont` || !strings.HasPrefix(lines[3], `{"type":"message"`) {
		t.Fatalf("the new record must be on its own line:\n%s", data)
	}
}

func TestNULBlockAndStrayLines(t *testing.T) { // case dur-2
	dir, id := t.TempDir(), NewID()
	var lines [][]byte
	var h []message.Message
	for i := range 6 {
		h = append(h, msg("user", fmt.Sprint("m", i)))
	}
	hashes := HashHistory(h)
	for i := range h {
		l, _ := EncodeRecord(&Record{Type: TypeMessage, Hash: hashes[i], Message: &h[i]})
		lines = append(lines, l)
	}
	var file bytes.Buffer
	for _, l := range lines[:3] {
		file.Write(l)
	}
	file.Write(append(bytes.Repeat([]byte{0}, 500), '\n'))
	for _, l := range lines[3:] {
		file.Write(l)
	}
	file.WriteString("not json\n{\"type\":\"mystery\"}\n")
	os.MkdirAll(dir, 0o700)
	os.WriteFile(Path(dir, id), file.Bytes(), 0o600)
	recs, res, err := ReadAll(Path(dir, id), noKey)
	if err != nil || len(recs) != 6 || recs[5].Message.Content != "m5" {
		t.Fatalf("records after the NUL block must be read: %d %v", len(recs), err)
	}
	if len(res.Warnings) != 3 || res.Warnings[0].Line != 4 || !strings.Contains(res.Warnings[0].Reason.String(), "500 NUL bytes") ||
		res.Warnings[1].Line != 8 || res.Warnings[2].Line != 9 {
		t.Fatalf("warnings %v", res.Warnings)
	}
}

func TestLinesSplitOnlyOnNewline(t *testing.T) {
	j := open(t, t.TempDir(), NewID())
	odd := "a\u2028b\u0085c\rd\u2029e\x00f"
	big := strings.Repeat("x", 10<<20)
	h := []message.Message{msg("user", odd), msg("assistant", big)}
	sync1(t, j, h, 2)
	got := messagesOf(t, j.Path())
	if got[0].Content != odd || got[1].Content != big {
		t.Fatal("content did not round-trip")
	}
	data, _ := os.ReadFile(j.Path())
	if n := bytes.Count(data, []byte("\n")); n != 2 {
		t.Fatalf("%d lines, want 2", n)
	}
}

func TestForkCopiesEventsIntoItsOwnFile(t *testing.T) {
	dir := t.TempDir()
	j := open(t, dir, NewID())
	h := []message.Message{msg("user", "a"), msg("assistant", "b")}
	sync1(t, j, h, 2)
	id, _, err := Fork(dir, j.ID(), noKey)
	if err != nil || id == j.ID() {
		t.Fatal(err)
	}
	f := open(t, dir, id)
	sync1(t, f, append(h, msg("user", "fork only")), 1)
	if len(messagesOf(t, j.Path())) != 2 || len(messagesOf(t, f.Path())) != 3 {
		t.Fatal("fork wrote into the parent")
	}
}

// TestConcurrentAppenders runs two processes that each append 500 records
// of 100 KB to one journal: every line must parse.
func TestConcurrentAppenders(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for p := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAppender$")
			cmd.Env = append(os.Environ(), "JOURNAL_HELPER_DIR="+dir, "JOURNAL_HELPER_ID="+id, fmt.Sprint("JOURNAL_HELPER_WRITER=", p))
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[p] = fmt.Errorf("%v: %s", err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	recs, res, err := ReadAll(Path(dir, id), noKey)
	if err != nil || len(res.Warnings) != 0 {
		t.Fatalf("%v %v", err, res.Warnings)
	}
	count := map[string]int{}
	for _, r := range recs {
		if r.Type == TypeMessage {
			count[r.Message.Content[:2]]++
		}
	}
	if count["w0"] != 500 || count["w1"] != 500 {
		t.Fatalf("messages per writer: %v", count)
	}
}

func TestHelperAppender(t *testing.T) {
	dir := os.Getenv("JOURNAL_HELPER_DIR")
	if dir == "" {
		return // only meaningful as TestConcurrentAppenders' child process
	}
	w := os.Getenv("JOURNAL_HELPER_WRITER")
	j, _, err := Open(dir, os.Getenv("JOURNAL_HELPER_ID"), noKey)
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("z", 100<<10)
	for i := range 500 {
		// Each writer syncs its own growing history; the other's records make
		// the view diverge, so rewrites interleave with messages.
		m := msg("user", fmt.Sprintf("w%s-%03d %s", w, i, pad))
		if _, err := j.Sync([]message.Message{m}, ReasonSync); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDamagedLinesThatStillHoldARecord(t *testing.T) {
	dir, id := t.TempDir(), NewID()
	h := []message.Message{msg("user", "a"), msg("assistant", "b"), msg("user", "c")}
	hashes := HashHistory(h)
	var file bytes.Buffer
	l0, _ := EncodeRecord(&Record{Type: TypeMessage, Hash: hashes[0], Message: &h[0]})
	l1, _ := EncodeRecord(&Record{Type: TypeMessage, Hash: hashes[1], Message: &h[1]})
	l2, _ := EncodeRecord(&Record{Type: TypeMessage, Hash: hashes[2], Message: &h[2]})
	file.Write(l0)
	file.Write(bytes.Repeat([]byte{0}, 500)) // zeros whose newline was lost
	file.Write(l1)
	file.Write(bytes.TrimSuffix(l2, []byte("\n"))) // a whole record without its newline
	os.WriteFile(Path(dir, id), file.Bytes(), 0o600)
	j, w, err := Open(dir, id, noKey)
	if err != nil || len(w) != 1 || !strings.Contains(w[0].Reason.String(), "500 NUL bytes before a record") {
		t.Fatalf("warnings %v %v", w, err)
	}
	sync1(t, j, append(h, msg("assistant", "d")), 1) // only "d" is new
	recs, res, _ := ReadAll(j.Path(), noKey)
	if len(recs) != 4 || len(res.Warnings) != 1 {
		t.Fatalf("%d records, warnings %v", len(recs), res.Warnings)
	}
}
