package session

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// Names returns the name of every session in the store without opening
// any file, ordered by file modification time, most recent first. The
// order is only a good order to read headers in when they are shown as
// they come (the picker): recency itself is the stored updated_at (Stat,
// List). Hidden files are skipped, as List skips them.
func (s *Store) Names() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("session: list %s: %w", s.dir, err)
	}
	type named struct {
		name string
		mod  time.Time
	}
	var out []named
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), fileExt)
		if !ok || strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		var mod time.Time
		if info, err := e.Info(); err == nil {
			mod = info.ModTime()
		}
		out = append(out, named{name, mod})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].mod.After(out[j].mod) })
	names := make([]string, len(out))
	for i, n := range out {
		names[i] = n.name
	}
	return names, nil
}
