package shadow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// benchStores runs bench on the git store and on the sealed store.
func benchStores(b *testing.B, bench func(b *testing.B, key seal.Key)) {
	b.Run("git", func(b *testing.B) { bench(b, seal.Key{}) })
	b.Run("sealed", func(b *testing.B) { bench(b, testKey(b)) })
}

func benchRepo(b *testing.B, key seal.Key) (*Repo, string) {
	ws := b.TempDir()
	r, err := Open(b.TempDir(), ws, key)
	if err != nil {
		b.Fatal(err)
	}
	return r, ws
}

// BenchmarkToolWrite is one tool write of a tracked file: BeforeChange,
// the write, AfterChange (one git run; with a key, one sealed object).
func BenchmarkToolWrite(b *testing.B) { benchStores(b, benchToolWrite) }

func benchToolWrite(b *testing.B, key seal.Key) {
	r, ws := benchRepo(b, key)
	p := filepath.Join(ws, "a.go")
	for i := 0; b.Loop(); i++ {
		if err := r.BeforeChange(p); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(p, []byte(fmt.Sprint(i)), 0o644)
		if err := r.AfterChange(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckpoint is a checkpoint after one change (a commit, one git
// run) and one without (no git run).
func BenchmarkCheckpoint(b *testing.B) { benchStores(b, benchCheckpoint) }

func benchCheckpoint(b *testing.B, key seal.Key) {
	for _, changed := range []bool{true, false} {
		b.Run(fmt.Sprintf("changed=%v", changed), func(b *testing.B) {
			r, ws := benchRepo(b, key)
			p := filepath.Join(ws, "a.go")
			r.BeforeChange(p)
			for i := 0; b.Loop(); i++ {
				if changed {
					b.StopTimer()
					os.WriteFile(p, []byte(fmt.Sprint(i)), 0o644)
					r.AfterChange(p)
					b.StartTimer()
				}
				if _, err := r.Checkpoint(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRestore sets 20 modified files back (two git runs).
func BenchmarkRestore(b *testing.B) { benchStores(b, benchRestore) }

func benchRestore(b *testing.B, key seal.Key) {
	r, ws := benchRepo(b, key)
	var paths []string
	for i := range 20 {
		p := filepath.Join(ws, fmt.Sprintf("f%02d.go", i))
		os.WriteFile(p, []byte("before"), 0o644)
		paths = append(paths, p)
	}
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		for _, p := range paths {
			r.BeforeChange(p)
		}
		id, _ := r.Checkpoint()
		for _, p := range paths {
			os.WriteFile(p, []byte(fmt.Sprint(i)), 0o644)
			r.AfterChange(p)
		}
		b.StartTimer()
		plan, err := r.Plan(id)
		if err != nil || len(plan.Changes) != 20 {
			b.Fatal(err, len(plan.Changes))
		}
		if _, err := r.Restore(context.Background(), plan, nil); err != nil {
			b.Fatal(err)
		}
	}
}
