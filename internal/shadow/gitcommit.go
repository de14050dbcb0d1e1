package shadow

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

// commit writes manifest as a checkpoint commit on refs/heads/checkpoints
// after parent (one git fast-import run: manifest blob, trees, commit,
// ref). The commit's tree holds the contents too, so git keeps every blob
// reachable.
func (r *gitStore) commit(st *state, manifest []byte, parent string) (string, error) {
	var in bytes.Buffer
	fmt.Fprintf(&in, "commit refs/heads/checkpoints\nmark :1\ncommitter chatcli <chatcli@localhost> %d +0000\ndata 10\ncheckpoint\n",
		time.Now().Unix())
	if parent != "" {
		fmt.Fprintf(&in, "from %s\n", parent)
	}
	fmt.Fprintf(&in, "deleteall\nM 100644 inline manifest\ndata %d\n", len(manifest))
	in.Write(manifest)
	in.WriteString("\n")
	for _, rec := range st.sorted() {
		for _, side := range []struct {
			dir string
			e   entry
		}{{"now/", rec.Now}, {"base/", rec.Base}} {
			mode := treeMode(side.e)
			if mode == "" {
				continue
			}
			// Unquoted: the path starts with "now/" or "base/", never with
			// a double quote, and holds no newline (git-fast-import(1)).
			fmt.Fprintf(&in, "M %s %s %s\n", mode, side.e.Blob, side.dir+rec.Path)
		}
	}
	in.WriteString("\nget-mark :1\ndone\n")
	out, err := r.git(in.Bytes(), "fast-import", "--quiet", "--force", "--done")
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(out))
	if !idPattern.MatchString(id) {
		return "", i18n.Errorf("shadow: git fast-import returned %q, not a commit id", id)
	}
	return id, nil
}

// manifest reads the "manifest" blob of commit id.
func (r *gitStore) manifest(id string) ([]byte, bool, error) {
	blobs, err := r.readBlobs([]string{id + ":manifest"})
	if err != nil {
		return nil, false, err
	}
	data, ok := blobs[id+":manifest"]
	return data, ok, nil
}

// checkpoints returns the ids of every checkpoint commit, newest first
// (none when the branch does not exist yet).
func (r *gitStore) checkpoints() ([]string, error) {
	out, err := r.git(nil, "rev-list", "--ignore-missing", "refs/heads/checkpoints", "--")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// treeMode is the git tree mode of an entry's content, "" for entries
// without content (folders, gone).
func treeMode(e entry) string {
	switch {
	case e.Kind == kindLink:
		return "120000"
	case e.Kind != kindFile:
		return ""
	case e.Perm&0o111 != 0:
		return "100755"
	}
	return "100644"
}
