package conversation

import (
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// TestAForksFileCoversItsJournal: a new fork's file names its journal's
// position, so a turn whose records reached the fork's journal before a
// kill (the REPL shows the reply before the file is written) is in the
// fork at the next load, instead of being rewritten away by the next
// turn of a file that stood alone.
func TestAForksFileCoversItsJournal(t *testing.T) {
	for _, fork := range []struct {
		name string
		make func(e *Engine) error
	}{
		{"fork", func(e *Engine) error { return e.Fork("f") }},
		{"fork at a checkpoint", func(e *Engine) error { _, err := e.ForkCheckpoint("f", 1); return err }},
	} {
		t.Run(fork.name, func(t *testing.T) {
			st, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			engine := func() *Engine { return New(Options{Store: st, Provider: offline.New(""), JournalDir: dir}) }
			a := engine()
			if err := a.Save("s", false); err != nil {
				t.Fatal(err)
			}
			turn(t, a, "one")
			turn(t, a, "two")
			if err := fork.make(a); err != nil {
				t.Fatal(err)
			}
			a.Close(false)
			if h, err := st.StatFile("f"); err != nil || h.JournalPos.Seq == 0 {
				t.Fatalf("the fork's file names no journal position (%v)", err)
			}

			b := engine()
			if _, err := b.Load("f"); err != nil {
				t.Fatal(err)
			}
			want := len(b.History()) + 2
			// A turn's records reach the journal; the process is killed
			// before the file is written.
			b.history = append(b.history, message.Message{Role: message.RoleUser, Content: "acknowledged"}, message.Message{Role: message.RoleAssistant, Content: "its reply"})
			b.record(journal.ReasonSync)

			c := engine()
			if _, err := c.Load("f"); err != nil {
				t.Fatal(err)
			}
			if got := len(c.History()); got != want || c.History()[got-2].Content != "acknowledged" {
				t.Fatalf("the fork loads with %d messages, want %d ending with the acknowledged turn", got, want)
			}
		})
	}
}
