package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// bigSession is a 10,000-message conversation of about 20 MB.
func bigSession() *Session {
	h := make([]message.Message, 10000)
	body := strings.Repeat("lorem ipsum dolor sit amet, \"quoted\" <tag> ação 🎉\n", 40) // ~2 KB
	for i := range h {
		role := message.RoleUser
		if i%2 == 1 {
			role = message.RoleAssistant
		}
		h[i] = message.Message{Role: role, Content: fmt.Sprintf("%d %s", i, body)}
	}
	return &Session{Title: "big", History: h}
}

// BenchmarkSave writes a 20 MB session durably (encode, temp, fsync,
// rename, fsync dir). Compare with BenchmarkMarshalFsync.
func BenchmarkSave(b *testing.B) {
	s, _ := Open(b.TempDir())
	sess := bigSession()
	data, _ := Encode(sess)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if err := s.Save("big", sess); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalFsync is the reference for BenchmarkSave: json.Marshal of
// the same messages plus one write and fsync of the bytes.
func BenchmarkMarshalFsync(b *testing.B) {
	dir := b.TempDir()
	sess := bigSession()
	type plainMsg struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	msgs := make([]plainMsg, len(sess.History))
	for i, m := range sess.History {
		msgs[i] = plainMsg{string(m.Role), m.Content}
	}
	doc := map[string]any{"version": 2, "title": sess.Title, "chat_history": msgs}
	data, _ := json.Marshal(doc)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		data, err := json.Marshal(doc)
		if err != nil {
			b.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, "ref.json"))
		if err != nil {
			b.Fatal(err)
		}
		f.Write(data)
		f.Sync()
		f.Close()
	}
}

// BenchmarkLoad reads and decodes the 20 MB session.
func BenchmarkLoad(b *testing.B) {
	s, _ := Open(b.TempDir())
	sess := bigSession()
	if err := s.Save("big", sess); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(s.Dir(), "big.json"))
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Load("big"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList2000 lists 2,000 sessions, first of a few hundred bytes
// each, then of 5 MB each (hard links to one 5 MB file, so the disk holds
// it once while every entry really is 5 MB): the two figures must match,
// since listing reads only headers.
func BenchmarkList2000(b *testing.B) {
	for _, size := range []struct {
		label string
		msgs  int
	}{{"small", 2}, {"5MB", 2500}} {
		b.Run(size.label, func(b *testing.B) {
			s, _ := Open(b.TempDir())
			sess := bigSession()
			sess.History = sess.History[:size.msgs]
			if err := s.Save("s0000", sess); err != nil {
				b.Fatal(err)
			}
			src := filepath.Join(s.Dir(), "s0000.json")
			for i := 1; i < 2000; i++ {
				if err := os.Link(src, filepath.Join(s.Dir(), fmt.Sprintf("s%04d.json", i))); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				list, err := s.List()
				if err != nil || len(list) != 2000 || list[0].Messages != size.msgs {
					b.Fatalf("list: %v %d", err, len(list))
				}
			}
		})
	}
}

// BenchmarkSaveSmallWithoutJournal saves a 20-message session that has no
// journal (CHATCLI_SESSION_TRANSCRIPT=false) in a store that knows the
// journal folder, as the command's factory opens it: each save also reads
// the name's link record, which keeps its revision (link.go).
func BenchmarkSaveSmallWithoutJournal(b *testing.B) {
	s, _ := Open(filepath.Join(b.TempDir(), "sessions"))
	s.SetJournalDir(filepath.Join(filepath.Dir(s.Dir()), "transcripts"))
	h := make([]message.Message, 20)
	for i := range h {
		h[i] = message.Message{Role: message.RoleUser, Content: fmt.Sprintf("question %d", i)}
		if i%2 == 1 {
			h[i].Role = message.RoleAssistant
		}
	}
	sess := &Session{Title: "small", History: h}
	for b.Loop() {
		if err := s.Save("small", sess); err != nil {
			b.Fatal(err)
		}
	}
}
