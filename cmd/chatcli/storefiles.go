package main

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/session"
)

// Kinds of storeFile.
const (
	fileSession = "session" // sessions/<name>.json
	fileTrash   = "trash"   // a trashed session, trash/<name>.<stamp>[-n].json
	fileJournal = "journal" // transcripts/<id>.jsonl
)

// storeFile is one file storage rekey and verify handle. name is the
// session a session or trash file holds (the name it is sealed for); ""
// for a journal.
type storeFile struct {
	kind, name, path string
}

// storeFiles lists the session files (by file name; hidden files and
// folders left out), the trashed sessions (by name) and, when journalDir
// is not "", the journals (files named by a valid id), in that order.
func storeFiles(st *session.Store, journalDir string) ([]storeFile, error) {
	var out []storeFile
	ents, err := os.ReadDir(st.Dir())
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		out = append(out, storeFile{fileSession, name, filepath.Join(st.Dir(), e.Name())})
	}
	trash, err := st.TrashList()
	if err != nil {
		return nil, err
	}
	sort.Slice(trash, func(i, j int) bool { return trash[i].File < trash[j].File })
	for _, e := range trash {
		out = append(out, storeFile{fileTrash, e.Name, e.Path})
	}
	if journalDir == "" {
		return out, nil
	}
	jents, err := os.ReadDir(journalDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, e := range jents {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || !journal.ValidID(id) {
			continue
		}
		out = append(out, storeFile{fileJournal, "", journal.Path(journalDir, id)})
	}
	return out, nil
}
