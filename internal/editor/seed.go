package editor

import (
	"errors"
	"io/fs"
	"os"
)

// SeedFileName is ChatCLI's input history, kept in the working folder
// (its HISTORY_FILE default), one entry per line.
const SeedFileName = ".chatcli_history"

// seedHistory gives a history file that does not exist yet the entries of
// seed (ChatCLI's input history, or any file of one entry per line), its
// last maxEntries, and returns how many it took; 0 when path exists, seed
// does not, or either is "". A seed that is not text is an error naming
// it, and nothing is written.
func seedHistory(path, seed string, maxEntries int, codec lineCodec) (int, error) {
	if path == "" || seed == "" {
		return 0, nil
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	entries, _, err := readHistoryFile(seed, lineCodec{})
	if err != nil || len(entries) == 0 {
		return 0, err
	}
	if maxEntries <= 0 {
		maxEntries = defaultHistoryMax
	}
	entries = lastN(entries, maxEntries)
	return len(entries), rewriteHistoryFile(path, entries, codec)
}
