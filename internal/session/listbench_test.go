package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// chatcliMessage and chatcliDoc are the shapes ChatCLI writes; encoded
// with json.MarshalIndent(doc, "", "  ") they give its files byte for byte
// (the compat files re-encode to themselves).
type chatcliMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Meta    *struct {
		IsSummary bool `json:"is_summary,omitempty"`
		SummaryOf int  `json:"summary_of,omitempty"`
	} `json:"meta,omitempty"`
}

type chatcliDoc struct {
	Version     int              `json:"version"`
	Title       string           `json:"title"`
	ChatHistory []chatcliMessage `json:"chat_history"`
}

// foreignStore writes n files in ChatCLI's layout of about sizeBytes each,
// grown from the messages of a compat file (a compaction summary first,
// then turns), each message naming its file so that no two files are
// alike, and returns the store.
func foreignStore(b *testing.B, n, sizeBytes int) *Store {
	b.Helper()
	data, err := os.ReadFile("testdata/chatcli-1.188.0/compact-auto.json")
	if err != nil {
		b.Fatal(err)
	}
	var seed chatcliDoc
	if err := json.Unmarshal(data, &seed); err != nil {
		b.Fatal(err)
	}
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		doc := chatcliDoc{Version: 2, Title: fmt.Sprintf("%s (%d)", seed.Title, i)}
		size := 0
		for j := 0; size < sizeBytes; j++ {
			m := seed.ChatHistory[j%len(seed.ChatHistory)]
			m.Content = fmt.Sprintf("file %d, message %d: %s", i, j, m.Content)
			doc.ChatHistory = append(doc.ChatHistory, m)
			size += len(m.Content) + 60 // the members and indentation around it
		}
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Dir(), fmt.Sprintf("chatcli-%04d.json", i)), out, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// benchmarkListForeign times a first listing of a store of files chatcli
// did not write: the list index is removed before each listing, so every
// file is scanned whole.
func benchmarkListForeign(b *testing.B, n, sizeBytes int) {
	s := foreignStore(b, n, sizeBytes)
	var total int64
	entries, _ := os.ReadDir(s.Dir())
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			total += info.Size()
		}
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := os.Remove(s.listIndexPath()); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		list, err := s.List()
		if err != nil || len(list) != n || list[0].Err != nil || list[0].Messages < 2 {
			b.Fatalf("list: %v %d %+v", err, len(list), list[0])
		}
	}
}

// BenchmarkListForeign2000x10KB: 2,000 files of 10 KB in ChatCLI's
// layout, listed for the first time.
func BenchmarkListForeign2000x10KB(b *testing.B) { benchmarkListForeign(b, 2000, 10<<10) }

// BenchmarkListForeign200x5MB: 200 files of 5 MB in ChatCLI's layout,
// listed for the first time (1 GB scanned per listing).
func BenchmarkListForeign200x5MB(b *testing.B) { benchmarkListForeign(b, 200, 5<<20) }

// BenchmarkReadForeign200x5MB is the reference for
// BenchmarkListForeign200x5MB: the same files read through a buffer of
// the scan's size, and nothing else done with them.
func BenchmarkReadForeign200x5MB(b *testing.B) {
	s := foreignStore(b, 200, 5<<20)
	entries, err := os.ReadDir(s.Dir())
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, scanBufBytes)
	b.ResetTimer()
	for b.Loop() {
		var total int64
		for _, e := range entries {
			f, err := os.Open(filepath.Join(s.Dir(), e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			for {
				n, err := f.Read(buf)
				total += int64(n)
				if err != nil {
					break
				}
			}
			f.Close()
		}
		b.SetBytes(total)
	}
}
