package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/session"
)

// LongSession builds under home ($CHATCLI_HOME's layout) the session name
// as chatcli writes a long conversation: bound from its first turn, with
// its journal, checkpoints and snapshots, grown by turns of the offline
// provider until it holds at least msgs messages and size bytes of
// prompts. progress, when set, is called every 1,000 turns with the
// messages so far. It returns the session file's size in bytes.
func LongSession(home, name string, msgs, size int, progress func(int)) (int64, error) {
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		return 0, err
	}
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""),
		JournalDir: filepath.Join(home, "transcripts"), ContextWindow: 1 << 40})
	if err := e.Save(name, false); err != nil {
		return 0, err
	}
	turns := max(msgs/2, 1)
	body := strings.Repeat("a long prompt, as pasted logs or code make them; ", max(size/turns/50, 1))
	for t := 0; len(e.History()) < msgs; t++ {
		if _, err := e.Turn(context.Background(), fmt.Sprint("turn ", t, ": ", body), nil); err != nil {
			return 0, fmt.Errorf("bench: turn %d: %w", t, err)
		}
		if progress != nil && t%1000 == 999 {
			progress(len(e.History()))
		}
	}
	if _, err := e.Close(false); err != nil {
		return 0, err
	}
	h, err := st.Stat(name)
	if err != nil {
		return 0, err
	}
	return h.SizeBytes, nil
}

// LiveHistoryBytes loads session name of the store under home and returns
// the heap bytes its loaded session holds (after a collection, less what
// the heap held before the load): the live history's size, the unit of
// the memory target of `chatcli session show`.
func LiveHistoryBytes(home, name string) (uint64, int, error) {
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		return 0, 0, err
	}
	st.SetJournalDir(filepath.Join(home, "transcripts"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := st.Load(name)
	if err != nil {
		return 0, 0, err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	n := len(s.History)
	runtime.KeepAlive(s)
	return after.HeapAlloc - before.HeapAlloc, n, nil
}
