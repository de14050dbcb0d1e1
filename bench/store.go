// Package bench holds benchmarks that need more of chatcli than one
// package, and builds their stores: EngineStore writes sessions through
// the conversation engine, as chatcli writes them, which package session's
// own benchmarks cannot (package conversation imports it). list.sh times
// `chatcli session list` over such a store in a fresh process.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/provider/offline"
	"github.com/chatcli/chatcli/internal/rewind"
	"github.com/chatcli/chatcli/internal/session"
)

// EngineSessionBytes is the size EngineStore's session grows to, at
// least: 5 MiB.
const EngineSessionBytes = 5 << 20

// engineTurns is the number of turns of EngineStore's session, each with a
// prompt of EngineSessionBytes/engineTurns bytes: more turns than
// rewind.MaxCheckpoints, so the file holds the most checkpoints a session
// keeps.
const engineTurns = 40

// EngineName is the name of the i-th session of an EngineStore.
func EngineName(i int) string { return fmt.Sprintf("engine-%04d", i) }

// EngineStore builds under home ($CHATCLI_HOME's layout: sessions/,
// transcripts/) n sessions of at least EngineSessionBytes written by
// chatcli's conversation engine: one session, EngineName(0), bound with
// Save and grown by engineTurns turns of long prompts answered by the
// offline provider, with its journal on (so it has a transcript_id and
// rewind.MaxCheckpoints checkpoints), then hard-linked to EngineName(1)
// … EngineName(n-1): every entry really is that file, while the disk
// holds it once. It returns the file's size in bytes, and fails when the
// session is not as described.
func EngineStore(home string, n int) (int64, error) {
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		return 0, err
	}
	e := conversation.New(conversation.Options{Store: st, Provider: offline.New(""),
		JournalDir: filepath.Join(home, "transcripts"), ContextWindow: 1 << 30})
	ctx := context.Background()
	const words = "a long prompt, as pasted logs or code make them; "
	chunk := strings.Repeat(words, EngineSessionBytes/engineTurns/len(words)+1)
	for t := range engineTurns {
		if _, err := e.Turn(ctx, fmt.Sprintf("turn %d: %s", t, chunk), nil); err != nil {
			return 0, fmt.Errorf("bench: turn %d: %w", t, err)
		}
		if t == 0 {
			if err := e.Save(EngineName(0), false); err != nil {
				return 0, err
			}
		}
	}
	if _, err := e.Close(false); err != nil {
		return 0, err
	}
	src, err := st.Path(EngineName(0))
	if err != nil {
		return 0, err
	}
	size, err := checkEngineSession(st, src)
	if err != nil {
		return 0, err
	}
	for i := 1; i < n; i++ {
		dst, err := st.Path(EngineName(i))
		if err != nil {
			return 0, err
		}
		if err := os.Link(src, dst); err != nil {
			return 0, fmt.Errorf("bench: link %s: %w", dst, err)
		}
	}
	return size, nil
}

// checkEngineSession checks that the session file at p is as EngineStore
// says and returns its size.
func checkEngineSession(st *session.Store, p string) (int64, error) {
	info, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	sess, err := st.Load(EngineName(0))
	if err != nil {
		return 0, err
	}
	var cps []json.RawMessage
	if err := json.Unmarshal(sess.Checkpoints, &cps); err != nil {
		return 0, fmt.Errorf("bench: checkpoints of %s: %w", p, err)
	}
	if info.Size() < EngineSessionBytes || len(cps) != rewind.MaxCheckpoints || sess.TranscriptID == "" {
		return 0, fmt.Errorf("bench: %s has %d bytes, %d checkpoints and transcript %q; want at least %d bytes, %d checkpoints and a transcript",
			p, info.Size(), len(cps), sess.TranscriptID, EngineSessionBytes, rewind.MaxCheckpoints)
	}
	return info.Size(), nil
}
