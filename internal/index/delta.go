package index

import (
	"maps"
	"slices"
)

// delta is what one log entry changes in the manifest (doc.go, "Log"):
// the sources added or changed, whole; the slots of those removed; the
// tombstones and next slot afterwards; the session files added, changed
// or gone. Applying the deltas of a log in order to the manifest naming
// it gives the manifest of the index.
type delta struct {
	NextSlot uint32               `json:"next_slot"`
	Sources  []*source            `json:"sources,omitempty"`
	Removed  []uint32             `json:"removed,omitempty"`
	Dead     []uint32             `json:"dead,omitempty"`
	Files    map[string]fileStamp `json:"files,omitempty"`
	Gone     []string             `json:"gone,omitempty"`
}

// snapshot is a copy of a manifest's sources and files, taken before an
// update, to compute the update's delta.
type snapshot struct {
	sources map[uint32]source
	files   map[string]fileStamp
}

// snap copies what m's delta is computed against. plan and the workers
// replace the slices of a source rather than change them, so a copy of
// each source's value is enough.
func (m *manifest) snap() snapshot {
	s := snapshot{sources: make(map[uint32]source, len(m.Sources)), files: maps.Clone(m.Files)}
	for _, src := range m.Sources {
		s.sources[src.Slot] = *src
	}
	return s
}

// diff returns what changed in m since prev.
func (m *manifest) diff(prev snapshot) delta {
	d := delta{NextSlot: m.NextSlot, Dead: slices.Clone(m.Dead)}
	now := make(map[uint32]bool, len(m.Sources))
	for _, src := range m.Sources {
		now[src.Slot] = true
		if old, ok := prev.sources[src.Slot]; !ok || !old.equal(src) {
			d.Sources = append(d.Sources, src)
		}
	}
	for slot := range prev.sources {
		if !now[slot] {
			d.Removed = append(d.Removed, slot)
		}
	}
	slices.Sort(d.Removed)
	for name, st := range m.Files {
		if old, ok := prev.files[name]; !ok || !old.equal(st) {
			if d.Files == nil {
				d.Files = map[string]fileStamp{}
			}
			d.Files[name] = st
		}
	}
	for name := range prev.files {
		if _, ok := m.Files[name]; !ok {
			d.Gone = append(d.Gone, name)
		}
	}
	slices.Sort(d.Gone)
	return d
}

// empty reports whether d changes nothing of the manifest prev was taken
// of, whose tombstones and next slot were dead and next.
func (d delta) empty(dead []uint32, next uint32) bool {
	return len(d.Sources) == 0 && len(d.Removed) == 0 && len(d.Files) == 0 && len(d.Gone) == 0 &&
		d.NextSlot == next && slices.Equal(d.Dead, dead)
}

// apply changes m as d says: removed sources leave, changed ones are
// replaced where they stand, new ones are appended in d's order, as the
// update that wrote d left them.
func (m *manifest) apply(d delta) {
	gone := map[uint32]bool{}
	for _, slot := range d.Removed {
		gone[slot] = true
	}
	at := map[uint32]int{}
	kept := m.Sources[:0]
	for _, src := range m.Sources {
		if !gone[src.Slot] {
			at[src.Slot] = len(kept)
			kept = append(kept, src)
		}
	}
	m.Sources = kept
	for _, src := range d.Sources {
		if i, ok := at[src.Slot]; ok {
			m.Sources[i] = src
		} else {
			m.Sources = append(m.Sources, src)
		}
	}
	m.NextSlot, m.Dead = d.NextSlot, d.Dead
	if len(d.Files) > 0 || len(d.Gone) > 0 {
		m.Files = maps.Clone(m.Files)
		if m.Files == nil {
			m.Files = map[string]fileStamp{}
		}
		maps.Copy(m.Files, d.Files)
		for _, name := range d.Gone {
			delete(m.Files, name)
		}
	}
}

// equal reports whether s and o hold the same values.
func (s source) equal(o *source) bool {
	return s.Slot == o.Slot && s.Journal == o.Journal && s.Session == o.Session && s.Version == o.Version &&
		s.Pos == o.Pos && s.Messages == o.Messages && s.Docs == o.Docs && s.Tokens == o.Tokens &&
		slices.Equal(s.Names, o.Names) && s.LastName == o.LastName && s.TrashChecked == o.TrashChecked
}

// equal reports whether f and o hold the same values.
func (f fileStamp) equal(o fileStamp) bool {
	return f.Size == o.Size && f.ModTime == o.ModTime && f.Transcript == o.Transcript &&
		f.Revision == o.Revision && f.UpdatedAt.Equal(o.UpdatedAt)
}
