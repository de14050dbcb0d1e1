package conversation

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/provider/offline"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"

	"github.com/chatcli/chatcli/internal/session"
)

// twoStores opens two stores (two processes) over one home, each told
// where the journals are, as cmd/chatcli's factory does.
func twoStores(t *testing.T) (dir, journals string, a, b *session.Store) {
	t.Helper()
	dir = t.TempDir()
	journals = filepath.Join(dir, "transcripts")
	var err error
	if a, err = session.Open(filepath.Join(dir, "sessions")); err != nil {
		t.Fatal(err)
	}
	if b, err = session.Open(filepath.Join(dir, "sessions")); err != nil {
		t.Fatal(err)
	}
	a.SetJournalDir(journals)
	b.SetJournalDir(journals)
	return
}

// Window A keeps the journal; window B runs with CHATCLI_SESSION_TRANSCRIPT=false
// (its store still reads tails). B's write-through carries A's journalled
// turn, and A's merge with B's file takes that turn as the common base: it
// is in the session once.
func TestAJournalOffWindowDoesNotDuplicateAJournalledTurn(t *testing.T) {
	_, journals, sa, sb := twoStores(t)
	a := newWindow(t, sa, journals)
	turn(t, a.Engine, "zero")
	if err := a.Save("s", false); err != nil {
		t.Fatal(err)
	}
	turn(t, a.Engine, "a1") // journal only
	b := newWindow(t, sb, "")
	if _, err := b.Load("s"); err != nil {
		t.Fatal(err)
	}
	if got := users(b.History()); got != "zero,a1" {
		t.Fatalf("B loaded %q", got)
	}
	turn(t, b.Engine, "b1") // whole-file write, journal_pos dropped
	turn(t, a.Engine, "a2")
	s, err := sa.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if got := users(s.History); got != "zero,a1,b1,a2" {
		t.Fatalf("session holds %q; notices %v", got, a.notices)
	}
}

// A journal whose damaged lines lie before the file's journal_pos shrinks
// under `storage verify --repair`; the tail's records keep their numbers
// and Load still applies them.
func TestARepairThatShrinksTheJournalKeepsTheTail(t *testing.T) {
	_, journals, sa, _ := twoStores(t)
	a := newWindow(t, sa, journals)
	turn(t, a.Engine, "zero")
	if err := a.Save("s", false); err != nil {
		t.Fatal(err)
	}
	p := journal.Path(journals, a.JournalID())
	// A kill -9 in the middle of a big append leaves a torn line.
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","seq":3,"message":{"role":"user","content":"` + strings.Repeat("x", 20000))
	f.Close()
	turn(t, a.Engine, "one")                   // completes the torn line
	if err := a.Save("s", false); err != nil { // snapshot: journal_pos past the torn line
		t.Fatal(err)
	}
	turn(t, a.Engine, "two") // journal only; then the process is killed
	if s, _ := sa.Load("s"); users(s.History) != "zero,one,two" {
		t.Fatalf("before repair: %q", users(s.History))
	}
	if _, err := journal.Repair(p, seal.Key{}); err != nil {
		t.Fatal(err)
	}
	s, err := sa.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if got := users(s.History); got != "zero,one,two" {
		t.Fatalf("after verify --repair the session holds %q", got)
	}
}

// Two windows type the same prompt: both hash it with the same occurrence
// number (counted from the same base), and both prompts stay.
func TestTheSamePromptInTwoWindowsIsTwoPrompts(t *testing.T) {
	st, _, a, b := twoWindows(t)
	b.hook.during = func() { turn(t, a.Engine, "continue") }
	turn(t, b.Engine, "continue")
	s, err := st.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if got := users(s.History); got != "zero,continue,continue" {
		for _, m := range s.History {
			t.Logf("%s: %.40q", m.Role, m.Content)
		}
		t.Fatalf("session holds %q; B's notices %v", got, b.notices)
	}
}

// /rewind N is chosen from the menu A showed; when B's turn and checkpoint
// came in meanwhile the numbers moved, and Rewind refuses rather than
// rewind to another checkpoint than the one shown.
func TestRewindRefusesWhenOtherWindowsCheckpointsCameIn(t *testing.T) {
	_, journals, sa, sb := twoStores(t)
	tick := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { tick = tick.Add(time.Second); return tick }
	mk := func(st *session.Store) *Engine {
		return New(Options{Store: st, Provider: offline.New(""), JournalDir: journals, Now: clock})
	}
	first := mk(sa)
	turn(t, first, "zero")
	if err := first.Save("s", false); err != nil {
		t.Fatal(err)
	}
	a, b := mk(sa), mk(sb)
	for _, w := range []*Engine{a, b} {
		if _, err := w.Load("s"); err != nil {
			t.Fatal(err)
		}
	}
	turn(t, a, "one")
	menu := a.Checkpoints()
	if len(menu) == 0 || menu[0].Prompt != "one" {
		t.Fatalf("A's menu %+v", menu)
	}
	turn(t, b, "from B")
	cp, err := a.Rewind(1) // the user picked "one" from the menu above
	if err != nil {
		t.Logf("refused: %v", err)
		return
	}
	if cp.Prompt != "one" {
		t.Fatalf("rewound to checkpoint %q, not the %q the menu showed as 1; history now %q", cp.Prompt, menu[0].Prompt, users(a.History()))
	}
}

func rchar() int64 {
	b, _ := os.ReadFile("/proc/self/io")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return -1
}

// After `chatcli storage rekey` (journal.Rekey moves every line), a file's
// journal_pos offset no longer starts a line; the first load writes the
// file again with the right one, so listing no longer reads the journal.
func TestALoadAfterARekeyHealsTheFilesJournalPosition(t *testing.T) {
	_, journals, sa, _ := twoStores(t)
	a := newWindow(t, sa, journals)
	big := strings.Repeat("y", 200<<10)
	for i := range 10 {
		turn(t, a.Engine, fmt.Sprint(i, big))
	}
	if _, err := a.Close(false); err != nil { // snapshot at the journal's end
		t.Fatal(err)
	}
	if err := a.Save("s", false); err != nil {
		t.Fatal(err)
	}
	k, kerr := seal.ParseKey("q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=")
	if kerr != nil {
		t.Fatal(kerr)
	}
	if _, _, err := journal.Rekey(journal.Path(journals, a.JournalID()), seal.Key{}, k); err != nil {
		t.Fatal(err)
	}
	sa.SetKey(k)
	// The first load after the rekey finds the file's position stale and
	// the engine writes the file again on exit, with the right one.
	healer := newWindow(t, sa, journals)
	if _, err := healer.Load("s"); err != nil {
		t.Fatal(err)
	}
	if _, err := healer.Close(false); err != nil {
		t.Fatal(err)
	}
	if _, err := sa.List(); err != nil { // warm the listing index
		t.Fatal(err)
	}
	before := rchar()
	if _, err := sa.List(); err != nil {
		t.Fatal(err)
	}
	if n := rchar() - before; n > 1<<20 {
		t.Fatalf("one List read %d bytes for one session with nothing after journal_pos", n)
	}
}

// A load reads the session file and the journal records after its
// position, not the journal: after a compaction the journal holds far more
// than the file, and the checkpoints taken before it are checked only when
// a rewind asks for one.
func TestALoadReadsTheFileAndTheTailOnly(t *testing.T) {
	_, journals, sa, _ := twoStores(t)
	a := newWindow(t, sa, journals)
	if err := a.Save("s", false); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("z", 100<<10)
	for i := range 20 {
		turn(t, a.Engine, fmt.Sprint(i, big))
	}
	h := a.History()
	summary := message.Message{Role: message.RoleUser, Content: "[summary]", Meta: &message.Meta{IsSummary: true}}
	if err := a.replace(append([]message.Message{summary}, h[len(h)-2:]...), journal.ReasonCompact); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Close(false); err != nil {
		t.Fatal(err)
	}
	p, _ := sa.Path("s")
	st, _ := os.Stat(p)
	jst, _ := os.Stat(journal.Path(journals, a.JournalID()))
	if jst.Size() < 4*st.Size() {
		t.Fatalf("journal %d bytes, file %d: the compaction did not shrink the file", jst.Size(), st.Size())
	}
	b := newWindow(t, sa, journals)
	before := rchar()
	if _, err := b.Load("s"); err != nil {
		t.Fatal(err)
	}
	if n := rchar() - before; n > 2*st.Size()+64<<10 {
		t.Fatalf("the load read %d bytes; the file is %d, the journal %d", n, st.Size(), jst.Size())
	}
	if len(b.Checkpoints()) == 0 {
		t.Fatal("checkpoints lost")
	}
}
