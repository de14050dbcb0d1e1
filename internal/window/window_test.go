package window

import (
	"os"
	"path/filepath"
	"testing"
)

// Windows learned for two models are both kept; a damaged or newer file
// is ignored and replaced by the next learned window; no store, no window.
func TestMemory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	m := Open(dir)
	if m.Learned("ollama", "qwen3") != 0 {
		t.Fatal("a window before any was learned")
	}
	if err := m.Learn("ollama", "qwen3", 8000); err != nil {
		t.Fatal(err)
	}
	if err := Open(dir).Learn("openai", "gpt-4o", 100000); err != nil {
		t.Fatal(err)
	}
	if a, b := m.Learned("ollama", "qwen3"), m.Learned("openai", "gpt-4o"); a != 8000 || b != 100000 {
		t.Fatalf("learned %d and %d", a, b)
	}
	if st, err := os.Stat(filepath.Join(dir, FileName)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file: %v %v", st, err)
	}
	for _, bad := range []string{"{not json", `{"version":2,"windows":{"ollama/qwen3":{"tokens":1}}}`} {
		os.WriteFile(filepath.Join(dir, FileName), []byte(bad), 0o600)
		if n := m.Learned("ollama", "qwen3"); n != 0 {
			t.Errorf("%q gives %d", bad, n)
		}
		if err := m.Learn("ollama", "qwen3", 7000); err != nil || m.Learned("ollama", "qwen3") != 7000 {
			t.Errorf("after %q: %v, %d", bad, err, m.Learned("ollama", "qwen3"))
		}
	}
	var none *Memory
	if none.Learned("a", "b") != 0 || none.Learn("a", "b", 1) != nil {
		t.Error("a nil Memory")
	}
}
