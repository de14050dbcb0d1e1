package recent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

var t0 = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

func TestNoteReadAndInFolder(t *testing.T) {
	r := Open(t.TempDir())
	if m, err := r.Read(); err != nil || len(m) != 0 {
		t.Fatalf("no record yet: %v %v", m, err)
	}
	for i, n := range []string{"old", "newer", "elsewhere", "newest"} {
		folder := "/w/a"
		if n == "elsewhere" {
			folder = "/w/b"
		}
		if err := r.Note(n, folder, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Note("old", "/w/a", t0.Add(time.Hour)); err != nil { // used again: most recent now
		t.Fatal(err)
	}
	m, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := InFolder(m, "/w/a"); !slices.Equal(got, []string{"old", "newest", "newer"}) {
		t.Fatalf("InFolder /w/a = %v", got)
	}
	if err := r.Rename("newer", "renamed"); err != nil {
		t.Fatal(err)
	}
	m, _ = r.Read()
	if _, ok := m["newer"]; ok || m["renamed"].Folder != "/w/a" {
		t.Fatalf("rename kept no folder: %v", m)
	}
	info, err := os.Stat(r.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("record mode: %v %v", info, err)
	}
}

func TestADamagedRecordIsNamedAndMovedAsideByTheNextWrite(t *testing.T) {
	home := t.TempDir()
	r := Open(home)
	for _, bad := range []string{"{not json", `{"version":7,"sessions":{}}`} {
		if err := os.WriteFile(r.Path(), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Read(); !errors.Is(err, ErrCorrupt) || !containsPath(err, r.Path()) {
			t.Fatalf("read of %q: %v", bad, err)
		}
		err := r.Note("s", "/w", t0)
		if !errors.Is(err, ErrCorrupt) || !containsPath(err, r.Path()+".broken") {
			t.Fatalf("note over %q: %v", bad, err)
		}
		if kept, _ := os.ReadFile(r.Path() + ".broken"); string(kept) != bad {
			t.Fatalf("the damaged record was not kept: %q", kept)
		}
		if m, err := r.Read(); err != nil || m["s"].Folder != "/w" {
			t.Fatalf("new record: %v %v", m, err)
		}
	}
}

func containsPath(err error, p string) bool { return err != nil && strings.Contains(err.Error(), p) }

func TestConcurrentNotesAreAllKept(t *testing.T) {
	r := Open(t.TempDir())
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Open(filepath.Dir(r.Path())).Note(fmt.Sprintf("s%d", i), "/w", t0); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if m, err := r.Read(); err != nil || len(m) != 20 {
		t.Fatalf("%d of 20 notes kept (%v)", len(m), err)
	}
}

func TestTrimDropsTheLeastRecentlyUsed(t *testing.T) {
	m := map[string]Entry{}
	for i := range MaxEntries + 3 {
		m[fmt.Sprintf("s%d", i)] = Entry{Folder: "/w", UsedAt: t0.Add(time.Duration(i) * time.Second)}
	}
	trim(m)
	if len(m) != MaxEntries {
		t.Fatalf("%d entries", len(m))
	}
	for _, gone := range []string{"s0", "s1", "s2"} {
		if _, ok := m[gone]; ok {
			t.Fatalf("%s, among the oldest, was kept", gone)
		}
	}
	if _, ok := m["s3"]; !ok {
		t.Fatal("s3 dropped")
	}
}

// TestADamagedRecordIsSaidInPortuguese: the error of a damaged record
// reads as before in English and is said in Portuguese, its path kept.
func TestADamagedRecordIsSaidInPortuguese(t *testing.T) {
	r := Open(t.TempDir())
	if err := os.WriteFile(r.Path(), []byte(`{"version":7,"sessions":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	err := r.Note("s", "/w", t0)
	en := "recent: damaged record: " + r.Path() + ": version 7, want 1; moved it to " + r.Path() + ".broken and started a new one"
	pt := "recentes: registro danificado: " + r.Path() + ": versão 7, o esperado é 1; ele foi movido para " + r.Path() + ".broken e um novo foi começado"
	if err == nil || err.Error() != en {
		t.Fatalf("%v, want %q", err, en)
	}
	if got := i18n.New(i18n.Portuguese).Error(err, nil); got != pt {
		t.Fatalf("Portuguese %q, want %q", got, pt)
	}
}
