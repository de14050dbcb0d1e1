package index

import (
	"os"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/session"
)

// fileStamp is what the manifest remembers of one session file, so that
// an update reads the header of changed files only: the file's size and
// modification time when read, and the header members the index uses.
type fileStamp struct {
	Size       int64     `json:"size"`
	ModTime    int64     `json:"mtime_ns"`
	Transcript string    `json:"transcript_id,omitempty"`
	Revision   int64     `json:"revision"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// sessionFileExt is the extension of session files in the sessions
// folder (package session's layout); names starting with "." are its
// temporary and derived files.
const sessionFileExt = ".json"

// headers returns the header of every session of the store: the file's
// own header (session.Store.StatFile, one small read), read again only
// when the file's size or modification time changed since the manifest
// remembered it. It does not count journal records after the snapshot
// (session.Store.List does): the index reads journals itself. Headers
// that cannot be read come back with Err set.
func (ix *Index) headers() ([]session.Header, error) {
	entries, err := os.ReadDir(ix.o.Store.Dir())
	if err != nil && !os.IsNotExist(err) {
		return nil, i18n.Errorf("index: list %s: %w", ix.o.Store.Dir(), err)
	}
	old, files := ix.man.Files, map[string]fileStamp{}
	var out []session.Header
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), sessionFileExt)
		if !ok || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed since the folder was read
		}
		if st, ok := old[name]; ok && st.Size == info.Size() && st.ModTime == info.ModTime().UnixNano() {
			files[name] = st
			out = append(out, session.Header{Name: name, TranscriptID: st.Transcript, Revision: st.Revision,
				UpdatedAt: st.UpdatedAt, SizeBytes: st.Size})
			continue
		}
		h, err := ix.o.Store.StatFile(name)
		h.Name, h.Err = name, err
		if err == nil {
			files[name] = fileStamp{Size: info.Size(), ModTime: info.ModTime().UnixNano(), Transcript: h.TranscriptID,
				Revision: h.Revision, UpdatedAt: h.UpdatedAt}
		}
		out = append(out, h)
	}
	ix.man.Files = files
	return out, nil
}
