package retention

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/seal"
)

// MachinePrefixes start the names of sessions chatcli makes by itself: the
// REPL's autosaves (conversation.AutosavePrefix), the MCP/ACP servers'
// mirrors and the chat gateway's. Only these are removed by rules.
var MachinePrefixes = []string{"autosave-", "mcp-", "gw-"}

// Retention defaults that have no setting.
const (
	DefaultTrashTTL = 7 * 24 * time.Hour
	DefaultTempTTL  = time.Hour
)

// Rules are the limits a pass applies; zero durations and counts turn the
// corresponding rule off.
type Rules struct {
	// SessionTTL expires machine sessions by stored updated_at and orphan
	// journals by mtime.
	SessionTTL time.Duration
	// KeepPerPrefix caps the machine sessions kept per prefix.
	KeepPerPrefix int
	// TrashTTL is how long a trashed session is kept.
	TrashTTL time.Duration
	// TempTTL is the age past which a hidden temp file is a leftover.
	TempTTL time.Duration
	// HistoryFile is the REPL's input history file (reported, and its temp
	// files swept); "" means <home>/history. HistoryMaxLines is its cap, for
	// the report (the editor applies it).
	HistoryFile     string
	HistoryMaxLines int
	// Key is the store's encryption key (CHATCLI_ENCRYPTION_KEY), so the
	// headers of sealed sessions are read; without it a sealed session is
	// unreadable and every rule that depends on it waits.
	Key seal.Key
}

// DefaultRules are the rules with every setting at its default.
func DefaultRules() Rules {
	return Rules{SessionTTL: config.DefaultSessionTTL, KeepPerPrefix: config.DefaultAutosaveKeep,
		TrashTTL: DefaultTrashTTL, TempTTL: DefaultTempTTL, HistoryMaxLines: config.DefaultHistoryMax}
}

// FromConfig returns the rules the configuration sets.
func FromConfig(c config.Config) Rules {
	r := DefaultRules()
	r.SessionTTL, r.KeepPerPrefix = c.SessionTTL, c.AutosaveKeep
	r.HistoryFile, r.HistoryMaxLines = c.HistoryFile, c.HistoryMax
	r.Key = c.EncryptionKey
	return r
}

// MachinePrefix returns the machine prefix name starts with, or "" for a
// session a person named.
func MachinePrefix(name string) string {
	for _, p := range MachinePrefixes {
		if strings.HasPrefix(name, p) {
			return p
		}
	}
	return ""
}

func (r Rules) historyFile(home string) string {
	if r.HistoryFile != "" {
		return r.HistoryFile
	}
	return filepath.Join(home, "history")
}

// paths of a store under home.
func sessionsDir(home string) string    { return filepath.Join(home, "sessions") }
func transcriptsDir(home string) string { return filepath.Join(home, "transcripts") }

// isTemp reports whether a file name is a hidden temporary file of
// package atomicfile's pattern (".<name>.tmp-<random>", where os.CreateTemp
// makes <random> decimal digits). Session lock and open-marker files
// (".<name>.lock", ".<name>.open") never match, even for a session whose
// name holds ".tmp-".
func isTemp(file string) bool {
	i := strings.LastIndex(file, ".tmp-")
	if !strings.HasPrefix(file, ".") || i < 0 || i+len(".tmp-") == len(file) {
		return false
	}
	for _, c := range file[i+len(".tmp-"):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
