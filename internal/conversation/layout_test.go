package conversation

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/rewind"
)

// A session the engine wrote after many turns keeps its header in the
// first bytes and its checkpoints small: the file grows with the history,
// never with history x checkpoints, and Stat reads one block.
func TestEngineWrittenSessionKeepsItsHeaderFirstAndCheckpointsSmall(t *testing.T) {
	f := newFixture(t)
	e := f.engine(nil)
	e.setJournalDir(t.TempDir())
	if err := e.Save("long", false); err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		turn(t, e, fmt.Sprintf("question %d %s", i, strings.Repeat("x", 200)))
	}
	p, _ := f.store.Path("long")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.Index(data, []byte(`"chat_history":[`)); i < 0 || i > 512 {
		t.Fatalf("chat_history starts at byte %d", i)
	}
	_, tail, _ := bytes.Cut(data, []byte(`"checkpoints":`))
	tail, _, _ = bytes.Cut(tail, []byte("\n"))
	if len(e.Checkpoints()) != rewind.MaxCheckpoints || len(tail) > rewind.MaxCheckpoints*250 {
		t.Fatalf("%d checkpoints take %d bytes", len(e.Checkpoints()), len(tail))
	}
	h, err := f.store.Stat("long")
	if err != nil || h.Messages != len(e.History()) || h.Title == "" {
		t.Fatalf("stat: %+v %v", h, err)
	}
	// Every checkpoint still resolves after a reload, and rewinds.
	e.Close(false)
	e2 := f.engine(nil)
	e2.setJournalDir(e.journalDir)
	if _, err := e2.Load("long"); err != nil {
		t.Fatal(err)
	}
	if n := len(e2.Checkpoints()); n != rewind.MaxCheckpoints {
		t.Fatalf("%d checkpoints after reload: %v", n, f.notices)
	}
	cp, err := e2.Rewind(rewind.MaxCheckpoints)
	if err != nil || len(e2.History()) != cp.Messages {
		t.Fatalf("rewind to the oldest: %v, %d messages, want %d", err, len(e2.History()), cp.Messages)
	}
}
