package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// foreignToolStore writes n files in ChatCLI's layout of about sizeBytes
// each, grown from the agent turns of a compat file (/coder mode with
// native tool calls: every third message carries tool_calls), each
// message naming its file, and returns the store.
func foreignToolStore(b *testing.B, n, sizeBytes int) *Store {
	b.Helper()
	data, err := os.ReadFile("testdata/chatcli-1.188.0/coder-native.json")
	if err != nil {
		b.Fatal(err)
	}
	var seed struct {
		Title       string           `json:"title"`
		ChatHistory []map[string]any `json:"chat_history"`
	}
	if err := json.Unmarshal(data, &seed); err != nil {
		b.Fatal(err)
	}
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	turn := seed.ChatHistory[1:] // the system message once, first
	for i := range n {
		history := []map[string]any{seed.ChatHistory[0]}
		size := 0
		for j := 0; size < sizeBytes; j++ {
			m := map[string]any{}
			for k, v := range turn[j%len(turn)] {
				m[k] = v
			}
			m["content"] = fmt.Sprintf("file %d, message %d: %s", i, j, m["content"])
			history = append(history, m)
			raw, _ := json.Marshal(m)
			size += len(raw) + 40 // and the indentation
		}
		out, err := json.MarshalIndent(map[string]any{"version": 2, "title": fmt.Sprintf("%s (%d)", seed.Title, i), "chat_history": history}, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Dir(), fmt.Sprintf("coder-%04d.json", i)), out, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// BenchmarkListForeignTools2000x10KB: 2,000 files of 10 KB of agent turns
// with tool calls in ChatCLI's layout, listed for the first time (the
// list index removed before each listing).
func BenchmarkListForeignTools2000x10KB(b *testing.B) {
	s := foreignToolStore(b, 2000, 10<<10)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := os.Remove(s.listIndexPath()); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		list, err := s.List()
		if err != nil || len(list) != 2000 || list[0].Err != nil || list[0].Messages < 2 {
			b.Fatalf("list: %v %d %+v", err, len(list), list[0])
		}
	}
}
