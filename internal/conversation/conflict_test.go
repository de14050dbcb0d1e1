package conversation

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

// hookProvider runs once, at the start of its next request, what another
// window does meanwhile: the race a lock-free adoption check cannot see.
type hookProvider struct {
	provider.Provider
	during func()
}

func (h *hookProvider) Chat(ctx context.Context, req provider.Request, onDelta func(string)) (provider.Response, error) {
	if f := h.during; f != nil {
		h.during = nil
		f()
	}
	return h.Provider.Chat(ctx, req, onDelta)
}

// window is one surface's engine on a shared store with journals.
type window struct {
	*Engine
	hook    *hookProvider
	notices []string
}

func newWindow(t *testing.T, st *session.Store, journals string) *window {
	t.Helper()
	w := &window{hook: &hookProvider{Provider: offline.New("")}}
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	w.Engine = New(Options{Store: st, Provider: w.hook, JournalDir: journals, Now: func() time.Time { return clock },
		Notify: func(s string) { w.notices = append(w.notices, s) }})
	return w
}

// twoWindows returns windows A and B that both loaded session "s", which
// holds one turn "zero".
func twoWindows(t *testing.T) (st *session.Store, journals string, a, b *window) {
	t.Helper()
	dir := t.TempDir()
	st, err := session.Open(filepath.Join(dir, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	journals = filepath.Join(dir, "transcripts")
	first := newWindow(t, st, journals)
	turn(t, first.Engine, "zero")
	if err := first.Save("s", false); err != nil {
		t.Fatal(err)
	}
	a, b = newWindow(t, st, journals), newWindow(t, st, journals)
	for _, w := range []*window{a, b} {
		if _, err := w.Load("s"); err != nil {
			t.Fatal(err)
		}
	}
	return st, journals, a, b
}

// checkJournal checks that every line of journal id parses and that it
// recorded every prompt in want.
func checkJournal(t *testing.T, journals, id string, want ...string) {
	t.Helper()
	msgs, _, warnings, err := journal.Messages(journal.Path(journals, id), seal.Key{})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("journal %s: %v %v", id, err, warnings)
	}
	got := users(msgs)
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Fatalf("journal %s lacks %q: %s", id, w, got)
		}
	}
}

func TestCon1TurnsOfTwoWindowsAreMerged(t *testing.T) {
	st, journals, a, b := twoWindows(t)
	// B's turn is in flight when A's turn is saved: B's write-through
	// finds revision 2 where it expected 1.
	b.hook.during = func() { turn(t, a.Engine, "from A") }
	turn(t, b.Engine, "from B")
	s, err := st.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if got := users(s.History); got != "zero,from A,from B" || len(s.History) != 6 || s.Revision != 3 {
		t.Fatalf("session holds %q (%d messages, revision %d); notices %v", got, len(s.History), s.Revision, b.notices)
	}
	if len(b.notices) != 1 || !strings.Contains(b.notices[0], `"s" gained 2 message(s) elsewhere`) {
		t.Fatalf("B's notices: %v", b.notices)
	}
	if users(b.History()) != users(s.History) || b.Dirty() {
		t.Fatalf("B's live history %q is not what it saved", users(b.History()))
	}
	// A adopts the merge before its next turn; nothing forks.
	turn(t, a.Engine, "A again")
	if s, _ = st.Load("s"); users(s.History) != "zero,from A,from B,A again" {
		t.Fatalf("after A's next turn: %q", users(s.History))
	}
	if list, _ := st.List(); len(list) != 1 {
		t.Fatalf("sessions: %+v", list)
	}
	checkJournal(t, journals, s.TranscriptID, "zero", "from A", "from B", "A again")
}

func TestCon1DivergentHistoriesForkAnnounced(t *testing.T) {
	st, journals, a, b := twoWindows(t)
	turn(t, a.Engine, "a1")
	// B adopts a1 before its turn; meanwhile A rewinds a1 away and says
	// something else: B's base is no longer a prefix of the file.
	b.hook.during = func() {
		if _, err := a.Rewind(1); err != nil {
			t.Fatal(err)
		}
		turn(t, a.Engine, "a2")
	}
	turn(t, b.Engine, "b1")

	s, err := st.Load("s")
	if err != nil || users(s.History) != "zero,a2" {
		t.Fatalf("the session must hold A's side: %q %v", users(s.History), err)
	}
	fork := "s" + ConflictInfix + "20261130-090000"
	var named []string
	for _, n := range b.notices {
		if strings.Contains(n, `"`+fork+`"`) {
			named = append(named, n)
		}
	}
	if len(named) != 1 {
		t.Fatalf("want one notice naming %s: %v", fork, b.notices)
	}
	f, err := st.Load(fork)
	if err != nil || users(f.History) != "zero,a1,b1" {
		t.Fatalf("the conflict fork must hold B's side: %q %v", users(f.History), err)
	}
	if f.TranscriptID == "" || f.TranscriptID == s.TranscriptID {
		t.Fatalf("the fork must have its own journal: %q vs %q", f.TranscriptID, s.TranscriptID)
	}
	if users(b.History()) != "zero,a2" || b.Bound() != "s" || b.Dirty() {
		t.Fatalf("B must now show the session's version: %q bound %q", users(b.History()), b.Bound())
	}
	checkJournal(t, journals, s.TranscriptID, "zero", "a1", "a2", "b1")
	checkJournal(t, journals, f.TranscriptID, "zero", "a1", "b1")

	// B goes on from the session's version without another conflict.
	turn(t, b.Engine, "b2")
	if s, _ = st.Load("s"); users(s.History) != "zero,a2,b2" {
		t.Fatalf("after B's next turn: %q", users(s.History))
	}
}

func TestConflictNamesStayValid(t *testing.T) {
	long := strings.Repeat("é", 128)
	for _, name := range []string{"s", long, strings.Repeat("a", 100) + "." + strings.Repeat("b", 27)} {
		n := conflictName(name, "20261130-090000") + "-999"
		if _, err := session.NormalizeName(n); err != nil {
			t.Errorf("%q: %v", n, err)
		}
		if !strings.HasSuffix(n, ConflictInfix+"20261130-090000-999") {
			t.Errorf("%q lost its suffix", n)
		}
	}
}

// An agent turn whose write-through forks (the other side rewound while
// the tools ran) stops there: it never sends the other side's history to
// the model as if it were this task's.
func TestAgentLoopStopsWhenItsSessionForksAway(t *testing.T) {
	st, _, a, b := twoWindows(t)
	srv := newWireServer(t, "/v1/chat/completions", func(n int, body []byte, w http.ResponseWriter) {
		if n == 0 {
			openaiSSE(w, oaTool(0, "call_1", "list_files", `{"path":"."}`), oaChunk(`{}`, "tool_calls"))
			return
		}
		openaiSSE(w, oaText("done"), oaChunk(`{}`, "stop"))
	})
	p, err := openai.New(openai.Config{Model: "m", BaseURL: srv.URL + "/v1", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	b.hook.Provider, b.toolbox = p, &dirToolbox{root: workspace(t)}
	if err := b.SetMode(ModeAgent); err != nil {
		t.Fatal(err)
	}
	turn(t, a.Engine, "a1")
	b.hook.during = func() {
		if _, err := a.Rewind(1); err != nil {
			t.Fatal(err)
		}
		turn(t, a.Engine, "a2")
	}
	_, err = b.Turn(context.Background(), "b1", nil)
	fork := "s" + ConflictInfix + "20261130-090000"
	if !errors.Is(err, ErrForkedAway) || !strings.Contains(err.Error(), `"`+fork+`"`) {
		t.Fatalf("the turn must stop naming the fork %s: %v", fork, err)
	}
	if srv.count() != 1 {
		t.Fatalf("%d requests: the loop went on with the other side's history", srv.count())
	}
	f, err := st.Load(fork)
	if err != nil || !strings.HasSuffix(users(f.History), "b1") || f.History[len(f.History)-1].Role != message.RoleTool {
		t.Fatalf("the fork must hold this task's prompt and tool result: %q %v", users(f.History), err)
	}
	if users(b.History()) != users(reloaded(t, st, "s")) || b.Dirty() {
		t.Fatalf("B shows %q, the session holds %q", users(b.History()), users(reloaded(t, st, "s")))
	}
}

// A merge keeps the checkpoints of both sides: each window can rewind to
// the moment before the other's turn as well as its own.
func TestMergeKeepsTheCheckpointsOfBothSides(t *testing.T) {
	st, _, a, b := twoWindows(t)
	b.hook.during = func() { turn(t, a.Engine, "from A") }
	turn(t, b.Engine, "from B")
	s, err := st.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	stored, err := rewind.Decode(s.Checkpoints)
	if err != nil {
		t.Fatal(err)
	}
	prompts := func(list []rewind.Checkpoint) string {
		var out []string
		for _, cp := range list {
			out = append(out, cp.Prompt)
		}
		return strings.Join(out, ",")
	}
	if got := prompts(stored); got != "zero,from A,from B" {
		t.Fatalf("the merged session keeps checkpoints %q", got)
	}
	if got := prompts(b.Checkpoints()); got != "from B,from A,zero" { // newest first
		t.Fatalf("B's live checkpoints after the merge: %q", got)
	}
	turn(t, a.Engine, "A again") // A adopts the merge with every checkpoint
	if got := prompts(a.Checkpoints()); got != "A again,from B,from A,zero" {
		t.Fatalf("A's checkpoints after adopting the merge: %q", got)
	}
}
