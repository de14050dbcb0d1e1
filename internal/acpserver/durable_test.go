package acpserver

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/chatcli/chatcli/internal/atomicfile"
)

// TestAPromptWhoseMirrorCannotBeWrittenIsAnError breaks every whole-file
// write (ENOSPC through atomicfile's seam): the prompt is answered with a
// JSON-RPC error naming the mirror, never end_turn; once the disk is back,
// the next prompt saves both turns.
func TestAPromptWhoseMirrorCannotBeWrittenIsAnError(t *testing.T) {
	h := start(t, nil, true)
	id := h.newSession()
	orig := atomicfile.CreateTemp
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		return nil, &os.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.ENOSPC}
	}
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	_, _, err := h.prompt(id, "lost?")
	rpcError(t, err, codeInternal, "the turn was not saved")
	rpcError(t, err, codeInternal, "mcp-"+string(id))
	atomicfile.CreateTemp = orig
	h.mustPrompt(id, "again")
	s, err := h.store.Load("mcp-" + string(id))
	if err != nil || len(s.History) != 4 || s.History[0].Content != "lost?" {
		t.Fatalf("the mirror after the disk came back: %+v %v", s, err)
	}
}
