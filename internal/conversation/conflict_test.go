package conversation

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
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
	return twoWindowsWith(t, nil)
}

// twoWindowsWith is twoWindows with set applied to A before it loads.
func twoWindowsWith(t *testing.T, set func(*Engine)) (st *session.Store, journals string, a, b *window) {
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
	if set != nil {
		set(a.Engine)
	}
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

// Two windows' turns go to the journal, each in one piece: B's turn was in
// flight (its prompt journalled) when A's whole turn landed, so B's reply
// stays with B's prompt and A's turn follows; nothing is merged or forked,
// and the session file is not rewritten for either turn.
func TestCon1TurnsOfTwoWindowsAreMerged(t *testing.T) {
	st, journals, a, b := twoWindows(t)
	b.hook.during = func() { turn(t, a.Engine, "from A") }
	turn(t, b.Engine, "from B")
	s, err := st.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if got := users(s.History); got != "zero,from B,from A" || len(s.History) != 6 || s.Revision != 1 {
		t.Fatalf("session holds %q (%d messages, revision %d); notices %v", got, len(s.History), s.Revision, b.notices)
	}
	if s.History[3].Role != message.RoleAssistant || s.History[4].Content != "from A" {
		t.Fatalf("B's reply must follow B's prompt: %+v", s.History)
	}
	if len(b.notices) != 1 || !strings.Contains(b.notices[0], "took in 2 messages written in another window") {
		t.Fatalf("B's notices: %v", b.notices)
	}
	if users(b.History()) != users(s.History) || b.Dirty() {
		t.Fatalf("B's live history %q is not what the session holds", users(b.History()))
	}
	// A takes in B's turn before its next one; nothing forks.
	turn(t, a.Engine, "A again")
	if s, _ = st.Load("s"); users(s.History) != "zero,from B,from A,A again" || message.Validate(s.History) != nil {
		t.Fatalf("after A's next turn: %q", users(s.History))
	}
	if list, _ := st.List(); len(list) != 1 || list[0].Messages != len(s.History) {
		t.Fatalf("sessions: %+v", list)
	}
	checkJournal(t, journals, s.TranscriptID, "zero", "from A", "from B", "A again")
	// On exit each window writes the file, which then holds everything.
	for _, w := range []*window{a, b} {
		if _, err := w.Close(false); err != nil {
			t.Fatal(err)
		}
	}
	plain, _ := session.Open(st.Dir()) // no journal folder: the file alone
	if f, err := plain.Load("s"); err != nil || users(f.History) != "zero,from B,from A,A again" {
		t.Fatalf("the file after exit: %q %v", users(f.History), err)
	}
}

// Two rewrites of one base (B compacts what it read while A rewinds) are
// the one case that forks: B's version is kept as an announced conflict
// fork with its own journal, and A's is live in both windows.
func TestCon1DivergentHistoriesForkAnnounced(t *testing.T) {
	st, journals, a, b := twoWindows(t)
	turn(t, a.Engine, "a1")
	turn(t, b.Engine, "b1") // B takes in a1 first
	stale := append([]message.Message{{Role: message.RoleUser, Content: "[summary]", Meta: &message.Meta{IsSummary: true}}},
		b.History()[len(b.History())-2:]...)
	a.adopt() // b1 and its checkpoint come in
	n := slices.IndexFunc(a.Checkpoints(), func(cp rewind.Checkpoint) bool { return cp.Prompt == "b1" })
	if _, err := a.Rewind(n + 1); err != nil { // back to before b1
		t.Fatal(err)
	}
	turn(t, a.Engine, "a2")
	if err := b.replace(stale, journal.ReasonCompact); err != nil {
		t.Fatal(err)
	}
	s, err := st.Load("s")
	if err != nil || users(s.History) != "zero,a1,a2" {
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
	if err != nil || users(f.History) != "[summary],b1" {
		t.Fatalf("the conflict fork must hold B's side: %q %v", users(f.History), err)
	}
	if f.TranscriptID == "" || f.TranscriptID == s.TranscriptID {
		t.Fatalf("the fork must have its own journal: %q vs %q", f.TranscriptID, s.TranscriptID)
	}
	if l := f.Lineage; l == nil || l.Parent != "s" || l.Kind != session.LineageConflict || l.ParentTranscript != s.TranscriptID {
		t.Fatalf("the conflict fork must name its parent: %+v", l)
	}
	if users(b.History()) != "zero,a1,a2" || b.Bound() != "s" || b.Dirty() {
		t.Fatalf("B must now show the session's version: %q bound %q", users(b.History()), b.Bound())
	}
	checkJournal(t, journals, s.TranscriptID, "zero", "a1", "a2", "b1")
	// B goes on from the session's version without another conflict.
	turn(t, b.Engine, "b2")
	if s, _ = st.Load("s"); users(s.History) != "zero,a1,a2,b2" {
		t.Fatalf("after B's next turn: %q", users(s.History))
	}
}

func TestConflictNamesStayValid(t *testing.T) {
	for _, name := range []string{"s", strings.Repeat("é", 107), strings.Repeat("a", 128), strings.Repeat("a", 100) + "." + strings.Repeat("b", 27)} {
		n := conflictName(name, "20261130-090000") + "-999"
		if _, err := session.NormalizeName(n); err != nil {
			t.Errorf("%q: %v", n, err)
		}
		if !strings.HasSuffix(n, ConflictInfix+"20261130-090000-999") {
			t.Errorf("%q lost its suffix", n)
		}
	}
}

// An agent task goes on when another window rewinds the session while its
// tools run: the task's prompt, calls and results stay together after the
// other side's history, and the next request carries them.
func TestAgentLoopGoesOnWhenAnotherWindowRewinds(t *testing.T) {
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
		// A's own checkpoint before a1 (B's, taken in, is newer).
		a.adopt() // B's checkpoints come in first
		n := slices.IndexFunc(a.Checkpoints(), func(cp rewind.Checkpoint) bool { return cp.Prompt == "a1" })
		if _, err := a.Rewind(n + 1); err != nil {
			t.Fatal(err)
		}
		turn(t, a.Engine, "a2")
	}
	if _, err := b.Turn(context.Background(), "b1", nil); err != nil {
		t.Fatal(err)
	}
	if srv.count() != 2 {
		t.Fatalf("%d requests, want 2", srv.count())
	}
	h := reloaded(t, st, "s")
	if got := users(h); !strings.HasPrefix(got, "zero,a2,") || !strings.HasSuffix(got, "b1") {
		t.Fatalf("the session holds %q", got)
	}
	if last := h[len(h)-1]; last.Content != "done" || h[len(h)-2].Role != message.RoleTool {
		t.Fatalf("the task's messages are not together at the end: %+v", h[len(h)-3:])
	}
	if users(b.History()) != users(h) || b.Dirty() {
		t.Fatalf("B shows %q, the session holds %q", users(b.History()), users(h))
	}
	if list, _ := st.List(); len(list) != 1 {
		t.Fatalf("no fork expected: %+v", list)
	}
}

// Each window keeps the checkpoints of the other's turns as well as its
// own: they travel in the journal with the turns.
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
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	if got := prompts(stored); got != "from A,from B,zero" {
		t.Fatalf("the session keeps checkpoints %q", got)
	}
	if got := prompts(b.Checkpoints()); got != "from A,from B,zero" {
		t.Fatalf("B's live checkpoints: %q", got)
	}
	turn(t, a.Engine, "A again") // A takes in B's with its turn
	if got := prompts(a.Checkpoints()); got != "A again,from A,from B,zero" {
		t.Fatalf("A's checkpoints: %q", got)
	}
	for _, cp := range a.Checkpoints() {
		if hs, err := a.resolve([]rewind.Checkpoint{cp}); err != nil || hs[0] == nil {
			t.Fatalf("checkpoint %q does not resolve: %v", cp.Prompt, err)
		}
	}
}

// A session trashed elsewhere and made again under its name by another
// window is a new file, whatever revision the first window last saw: its
// next write never replaces the new session's conversation.
func TestASessionMadeAgainUnderATrashedNameIsNotReplaced(t *testing.T) {
	st, journals, a, _ := twoWindows(t)
	if _, err := st.Trash("s"); err != nil {
		t.Fatal(err)
	}
	other := newWindow(t, st, journals)
	turn(t, other.Engine, "new")
	if err := other.Save("s", false); err != nil {
		t.Fatal(err)
	}
	turn(t, a.Engine, "old")
	if _, err := a.Close(true); err != nil {
		t.Fatal(err)
	}
	s, err := st.Load("s")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(","+users(s.History)+",", ",new,") {
		t.Fatalf("the new session's turn was replaced: %q", users(s.History))
	}
}
