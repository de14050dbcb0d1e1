// Package window keeps the context windows chatcli learned from providers'
// refusals, so that a model whose window is smaller than chatcli assumed
// is compacted for from the first turn of the next process, not after one
// more refusal.
//
// On disk: $CHATCLI_HOME/cache/context-windows.json, one JSON object
//
//	{"version":1,"windows":{"<provider>/<model>":{"tokens":8192,"learned_at":"2026-12-01T15:00:00Z"}}}
//
// written whole and durably (internal/atomicfile). It is a cache: it holds
// no conversation text (provider and model names only), may be deleted at
// any time, and a file that cannot be read, or of a newer version, is
// ignored and replaced at the next learned window.
package window

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/storefile"
)

// FileName is the file's name in the store's cache folder.
const FileName = "context-windows.json"

// version is the format version of the file.
const version = 1

// entry is one learned window.
type entry struct {
	Tokens    int       `json:"tokens"`
	LearnedAt time.Time `json:"learned_at"`
}

type document struct {
	Version int              `json:"version"`
	Windows map[string]entry `json:"windows"`
}

// Memory is the learned windows of one store. It is safe for concurrent
// use; the methods of a nil *Memory do nothing (no store).
type Memory struct {
	path string
	now  func() time.Time
	mu   sync.Mutex
}

// Open returns the memory kept in cacheDir (the store's cache folder,
// created when the first window is learned).
func Open(cacheDir string) *Memory {
	return &Memory{path: filepath.Join(cacheDir, FileName), now: time.Now}
}

func key(provider, model string) string { return provider + "/" + model }

// read returns the file's windows; none when it is missing or unreadable.
func (m *Memory) read() map[string]entry {
	var d document
	data, err := storefile.ReadFile(m.path)
	if err != nil || json.Unmarshal(data, &d) != nil || d.Version != version || d.Windows == nil {
		return map[string]entry{}
	}
	return d.Windows
}

// Learned returns the window in tokens learned for model on provider, or 0
// when none was.
func (m *Memory) Learned(provider, model string) int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read()[key(provider, model)].Tokens
}

// Learn records tokens as the window of model on provider, keeping the
// windows learned for other models (the file is read again first, so two
// processes learning at once lose at most one of their two windows, never
// the file). It returns the error of the write (a full disk, a read-only
// store); the window then holds for this process only.
func (m *Memory) Learn(provider, model string, tokens int) error {
	if m == nil || tokens <= 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.read()
	w[key(provider, model)] = entry{Tokens: tokens, LearnedAt: m.now().UTC()}
	data, err := json.Marshal(document{Version: version, Windows: w})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(m.path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(m.path, data)
}
