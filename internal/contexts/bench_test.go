package contexts

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// benchTree writes a folder of 1,000 text files of about 3.5 KiB each
// (3.5 MiB, under MaxBytes) of words drawn from a 5,000-word vocabulary.
func benchTree(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(7, 7))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	for f := range 1000 {
		var sb strings.Builder
		for sb.Len() < 3500 {
			for range 12 {
				sb.WriteString(vocab[r.IntN(len(vocab))] + " ")
			}
			sb.WriteString("\n")
		}
		p := filepath.Join(dir, fmt.Sprintf("d%02d", f%20), fmt.Sprintf("f%04d.txt", f))
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkCreate snapshots the 3.5 MiB tree (walk, .gitignore, chunks,
// durable write), sealed.
func BenchmarkCreate(b *testing.B) {
	dir := benchTree(b)
	k, _ := seal.ParseKey(strings.Repeat("B", 43) + "=")
	st := Open(b.TempDir(), k)
	i := 0
	for b.Loop() {
		if _, err := st.Create(fmt.Sprint("c", i), []string{dir}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRequestRetrieval is the per-request cost of a sealed 3.5 MiB
// context attached in retrieval mode, after the first request (which
// reads and indexes it): a stat, one BM25 query, the rendering.
// BenchmarkRequestFull is the same in full mode.
func BenchmarkRequestRetrieval(b *testing.B) { benchRequest(b, ModeRetrieval) }
func BenchmarkRequestFull(b *testing.B)      { benchRequest(b, ModeFull) }

func benchRequest(b *testing.B, mode string) {
	dir := benchTree(b)
	k, _ := seal.ParseKey(strings.Repeat("B", 43) + "=")
	st := Open(b.TempDir(), k)
	if _, err := st.Create("big", []string{dir}); err != nil {
		b.Fatal(err)
	}
	s := &Supplier{Contexts: st}
	att, _ := EncodeAttachments([]Attachment{{ContextID: "big", Mode: mode}})
	s.Messages(att, "w17x w4242x w999x")
	b.ReportAllocs()
	for b.Loop() {
		if msgs := s.Messages(att, "w17x w4242x w999x"); len(msgs) != 1 {
			b.Fatal(len(msgs))
		}
	}
}
