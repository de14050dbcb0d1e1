package shadow

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

// manifestHeader starts every manifest.
const manifestHeader = "chatcli-shadow 1"

// Kinds of an entry.
const (
	kindFile = "file"
	kindLink = "link"
	kindDir  = "dir"
	kindGone = "gone"
)

// entry is the state of one path: its kind, permission bits and content.
type entry struct {
	Kind string
	Perm fs.FileMode // permission bits; 0 for gone
	Blob string      // git blob id of the content (file) or target (link); "" otherwise
}

// same reports whether two states are the same for restoring: folders are
// the same whatever their permissions.
func (e entry) same(o entry) bool {
	if e.Kind != o.Kind {
		return false
	}
	if e.Kind == kindDir || e.Kind == kindGone {
		return true
	}
	return e.Blob == o.Blob && (e.Kind == kindLink || e.Perm == o.Perm)
}

// record is one tracked path.
type record struct {
	Path      string // slash-separated, relative to the workspace
	Now, Base entry
}

// Command is one run_command call, recorded before it ran: its effects
// cannot be undone by a restore.
type Command struct {
	Time time.Time `json:"time"`
	Line string    `json:"line"`
}

// state is a manifest: the tracked paths and the command lines.
type state struct {
	Paths    map[string]*record
	Commands []Command
}

func newState() *state { return &state{Paths: map[string]*record{}} }

// blobs returns the blob ids of every content the state names, Now and
// Base alike (with repeats).
func (s *state) blobs() []string {
	var ids []string
	for _, rec := range s.Paths {
		for _, e := range []entry{rec.Now, rec.Base} {
			if e.Blob != "" {
				ids = append(ids, e.Blob)
			}
		}
	}
	return ids
}

// sorted returns the records by path.
func (s *state) sorted() []*record {
	out := make([]*record, 0, len(s.Paths))
	for _, r := range s.Paths {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func encodeEntry(b *bytes.Buffer, e entry) {
	perm, blob := "-", "-"
	if e.Kind != kindGone {
		perm = strconv.FormatUint(uint64(e.Perm.Perm()), 8)
	}
	if e.Blob != "" {
		blob = e.Blob
	}
	fmt.Fprintf(b, "%s %s %s ", e.Kind, perm, blob)
}

// encode returns the manifest bytes (see doc.go); equal states encode to
// equal bytes.
func (s *state) encode() []byte {
	var b bytes.Buffer
	b.WriteString(manifestHeader + "\x00")
	for _, r := range s.sorted() {
		b.WriteString("p ")
		encodeEntry(&b, r.Now)
		encodeEntry(&b, r.Base)
		b.WriteString(r.Path + "\x00")
	}
	for _, c := range s.Commands {
		fmt.Fprintf(&b, "c %d %s\x00", c.Time.UnixNano(), c.Line)
	}
	return b.Bytes()
}

// errManifest marks a manifest that cannot be parsed.
var errManifest = i18n.Errorf("shadow: damaged manifest")

func parseEntry(f []string) (entry, error) {
	e := entry{Kind: f[0]}
	switch e.Kind {
	case kindFile, kindLink, kindDir, kindGone:
	default:
		return e, i18n.Errorf("%w: kind %q", errManifest, f[0])
	}
	if f[1] != "-" {
		p, err := strconv.ParseUint(f[1], 8, 32)
		if err != nil {
			return e, i18n.Errorf("%w: permissions %q", errManifest, f[1])
		}
		e.Perm = fs.FileMode(p).Perm()
	}
	if f[2] != "-" {
		e.Blob = f[2]
	}
	return e, nil
}

// decodeState parses manifest bytes; name says where they come from, for
// errors.
func decodeState(data []byte, name string) (*state, error) {
	s := newState()
	recs := strings.Split(string(data), "\x00")
	if len(recs) < 2 || recs[0] != manifestHeader || recs[len(recs)-1] != "" {
		return nil, i18n.Errorf("%w: %s: no manifest header or torn end", errManifest, name)
	}
	for i, rec := range recs[1 : len(recs)-1] {
		switch {
		case strings.HasPrefix(rec, "p "):
			f := strings.SplitN(rec[2:], " ", 7)
			if len(f) != 7 || f[6] == "" {
				return nil, i18n.Errorf("%w: %s: record %d", errManifest, name, i+1)
			}
			now, err := parseEntry(f[0:3])
			if err != nil {
				return nil, i18n.Errorf("%s: record %d: %w", name, i+1, err)
			}
			base, err := parseEntry(f[3:6])
			if err != nil {
				return nil, i18n.Errorf("%s: record %d: %w", name, i+1, err)
			}
			s.Paths[f[6]] = &record{Path: f[6], Now: now, Base: base}
		case strings.HasPrefix(rec, "c "):
			f := strings.SplitN(rec[2:], " ", 2)
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if len(f) != 2 || err != nil {
				return nil, i18n.Errorf("%w: %s: record %d", errManifest, name, i+1)
			}
			s.Commands = append(s.Commands, Command{Time: time.Unix(0, ns).UTC(), Line: f[1]})
		default:
			return nil, i18n.Errorf("%w: %s: record %d", errManifest, name, i+1)
		}
	}
	return s, nil
}

// look returns the state of the file at abs as it is on disk, the blob id
// computed without git (content read in full). It is how Plan and Restore
// tell a hand edit.
func look(abs string) (entry, error) {
	e, err := statOnly(abs)
	if err != nil {
		return e, err
	}
	switch e.Kind {
	case kindLink:
		t, err := os.Readlink(abs)
		if err != nil {
			return entry{}, i18n.Errorf("shadow: %w", err)
		}
		e.Blob = blobID([]byte(t))
	case kindFile:
		data, err := os.ReadFile(abs)
		if err != nil {
			return entry{}, i18n.Errorf("shadow: %w", err)
		}
		e.Blob = blobID(data)
	}
	return e, nil
}
