package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeFiles writes n Claude Code conversations of turns tool-using
// turns each (user, assistant text + tool_use, tool_result, assistant)
// under dir, in the entry shapes of the Claude Code fixture.
func claudeFiles(b *testing.B, dir string, n, turns int) {
	b.Helper()
	for i := range n {
		id := fmt.Sprintf("55550000-0000-4000-8000-%012d", i)
		var sb strings.Builder
		for k := range turns {
			ts := fmt.Sprintf("2026-06-15T10:%02d:%02d.000Z", k/60%60, k%60)
			fmt.Fprintf(&sb, `{"type":"user","sessionId":%q,"cwd":"/w","timestamp":%q,"message":{"role":"user","content":"question %d about module %d"}}`+"\n", id, ts, k, i)
			fmt.Fprintf(&sb, `{"type":"assistant","sessionId":%q,"timestamp":%q,"message":{"id":"m%d","role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"src/f%d.go"}}]}}`+"\n", id, ts, k, k, k)
			fmt.Fprintf(&sb, `{"type":"user","sessionId":%q,"timestamp":%q,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%q}]}}`+"\n", id, ts, k, strings.Repeat("package main // line\n", 20))
			fmt.Fprintf(&sb, `{"type":"assistant","sessionId":%q,"timestamp":%q,"message":{"id":"r%d","role":"assistant","content":[{"type":"text","text":"The answer to question %d."}]}}`+"\n", id, ts, k, k)
		}
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(sb.String()), 0o600); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImport imports 200 conversations of 25 tool-using turns (100
// messages each) into a fresh store with their journals, then runs again
// over the same files (nothing new: the second figure).
func BenchmarkImport(b *testing.B) {
	src := b.TempDir()
	claudeFiles(b, src, 200, 25)
	files, err := claudeCode.Files(func(string) string { return "" }, []string{src})
	if err != nil || len(files) != 200 {
		b.Fatalf("%d files, %v", len(files), err)
	}
	run := func(f *fixture) int {
		added := 0
		for _, p := range files {
			convs, _, err := claudeCode.Read(p)
			if err != nil {
				b.Fatal(err)
			}
			out, err := f.w.Import(claudeCode.Prefix, convs[0])
			if err != nil {
				b.Fatal(err)
			}
			added += out.Added
		}
		return added
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			f := newFixture(b)
			b.StartTimer()
			if n := run(f); n != 200*100 {
				b.Fatalf("%d messages", n)
			}
		}
	})
	b.Run("again", func(b *testing.B) {
		f := newFixture(b)
		run(f)
		for b.Loop() {
			if n := run(f); n != 0 {
				b.Fatalf("%d messages added again", n)
			}
		}
	})
}
