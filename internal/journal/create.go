package journal

import (
	"fmt"
	"os"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
)

// openAppend opens the journal at path for appending, creating it (mode
// 0600). A journal with nothing in it yet (created here, or by lockFile,
// which creates the file it locks) is about to get its first records:
// its folder is fsynced first, once, so the file's entry survives a crash
// along with them. When that fsync fails the file is closed and nothing
// is appended.
func openAppend(path string) (*os.File, error) {
	f, st, err := storefile.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		err = atomicfile.SyncCreated(path)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("new journal, nothing appended: %w", err)
	}
	return f, nil
}
