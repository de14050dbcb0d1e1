package index

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// manifestName is the file naming an index's segments and sources.
const manifestName = "MANIFEST"

// manifest is the index's table of contents (doc.go, "Manifest").
type manifest struct {
	NextSegment uint64        `json:"next_segment"`
	NextSlot    uint32        `json:"next_slot"`
	Segments    []segmentMeta `json:"segments"`
	Sources     []*source     `json:"sources"`
	// Dead lists the slots of sources deleted or rewritten since their
	// documents were indexed: tombstones, until a merge drops those
	// documents.
	Dead []uint32 `json:"dead,omitempty"`
	// Files are the session files of the store when last read, by name.
	Files map[string]fileStamp `json:"files,omitempty"`
	// Log names the log whose entries apply on top of this manifest;
	// LogID, random, is in each of its entries, so that no entry applies
	// to another manifest.
	Log   string `json:"log,omitempty"`
	LogID uint64 `json:"log_id,omitempty"`
}

// segmentMeta names one segment of the manifest.
type segmentMeta struct {
	File  string `json:"file"`
	Docs  int    `json:"docs"`
	Bytes int64  `json:"bytes"`
}

// source is one journal or session snapshot the index holds the messages of.
type source struct {
	Slot uint32 `json:"slot"`
	// Journal is the transcript id of a journal source; Session the name
	// of a session without a journal, whose snapshot is indexed whole.
	Journal string `json:"journal,omitempty"`
	Session string `json:"session,omitempty"`
	// Version identifies the snapshot indexed (Session sources).
	Version string `json:"version,omitempty"`
	// Pos is the journal position indexed up to: the watermark.
	Pos journal.Pos `json:"pos"`
	// Messages counts the message records read so far: the next message
	// is at position Messages+1.
	Messages int `json:"messages"`
	// Docs and Tokens count the documents and terms indexed, for BM25.
	Docs   int   `json:"docs"`
	Tokens int64 `json:"tokens"`
	// Names are the sessions naming the journal now; LastName the last
	// that did, shown for a journal no session names any more.
	Names    []string `json:"names,omitempty"`
	LastName string   `json:"last_name,omitempty"`
	// TrashChecked is set once the trash was searched for LastName.
	TrashChecked bool `json:"trash_checked,omitempty"`
}

// loadManifest reads dir's manifest; a missing one is an empty index.
func loadManifest(dir string, key seal.Key) (*manifest, error) {
	path := filepath.Join(dir, manifestName)
	data, err := storefile.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &manifest{}, nil
	}
	if err != nil {
		return nil, i18n.Errorf("index: read %s: %w", path, err)
	}
	if err := checkHeader(path, data, kindManifest, key); err != nil {
		return nil, err
	}
	pt, end, err := readFrame(bytes.NewReader(data), key, manifestName, headerBytes)
	if err != nil {
		return nil, err
	}
	if end != int64(len(data)) {
		return nil, i18n.Errorf("%w: %s: %d bytes after the manifest", ErrDamaged, path, int64(len(data))-end)
	}
	m := &manifest{}
	if err := json.Unmarshal(pt, m); err != nil {
		return nil, i18n.Errorf("%w: %s: %v", ErrDamaged, path, err)
	}
	return m, nil
}

// store writes m as dir's manifest, durably (atomicfile: temp file, fsync,
// rename, fsync of dir), sealed with key unless zero.
func (m *manifest) store(dir string, key seal.Key) error {
	data, err := m.encode(key)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, manifestName), data)
}

// encode returns the bytes of the manifest file holding m, sealed with
// key unless zero.
func (m *manifest) encode(key seal.Key) ([]byte, error) {
	pt, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return appendFrame(header(kindManifest, !key.IsZero()), key, manifestName, pt)
}

// dead reports whether slot is a tombstone.
func (m *manifest) dead(slot uint32) bool {
	for _, d := range m.Dead {
		if d == slot {
			return true
		}
	}
	return false
}

// retire makes src a tombstone: its documents no longer match.
func (m *manifest) retire(src *source) {
	m.Dead = append(m.Dead, src.Slot)
}

// drop retires src and removes it from the sources.
func (m *manifest) drop(src *source) {
	m.retire(src)
	m.Sources = slices.DeleteFunc(m.Sources, func(x *source) bool { return x == src })
}

// newSource returns a fresh source in a new slot, added to m.
func (m *manifest) newSource(journalID, session string) *source {
	s := &source{Slot: m.NextSlot, Journal: journalID, Session: session}
	m.NextSlot++
	m.Sources = append(m.Sources, s)
	return s
}
