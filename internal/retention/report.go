package retention

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/shadow"
	"github.com/chatcli/chatcli/internal/storefile"
)

// StoreLine describes one store under the home folder.
type StoreLine struct {
	// Store names it: "sessions you named", "sessions autosave-",
	// "transcripts", "input history", "trash", "checkpoints", "temp files",
	// "other files".
	Store     string `json:"store"`
	Path      string `json:"path"`
	Files     int    `json:"files"`
	SizeBytes int64  `json:"size_bytes"`
	// Rule is the rule that governs the store, in words.
	Rule string `json:"rule"`
	// RemoveFiles and RemoveBytes are what the rule would remove now.
	RemoveFiles int   `json:"remove_files"`
	RemoveBytes int64 `json:"remove_bytes"`
}

// Store names used by Report, in report order after the machine prefixes.
const (
	storeNamed       = "sessions you named"
	storeTranscripts = "transcripts"
	storeHistory     = "input history"
	storeTrash       = "trash"
	storeTemp        = "temp files"
	storeCheckpoints = "checkpoints"
	storeContexts    = "contexts"
	storeMemory      = "memory"
	storeOther       = "other files"
)

// Report describes every store under home at now: file count, size, the
// rule that governs it and what that rule would remove now (as Plan
// computes it). Every file under home is counted in exactly one line;
// files no rule governs are "other files".
func Report(home string, rules Rules, now time.Time) ([]StoreLine, error) {
	home = filepath.Clean(home)
	plan, err := Plan(home, rules, now)
	if err != nil {
		return nil, err
	}
	lines := reportLines(home, rules)
	idx := map[string]*StoreLine{}
	for i := range lines {
		idx[lines[i].Store] = &lines[i]
	}
	hist := rules.historyFile(home)
	add := func(path string, fi fs.FileInfo) {
		l := idx[classify(home, hist, path)]
		l.Files++
		l.SizeBytes += fi.Size()
	}
	err = filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				add(path, fi)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("retention: walk %s: %w", home, err)
	}
	if rel, err := filepath.Rel(home, hist); err != nil || strings.HasPrefix(rel, "..") {
		if fi, err := storefile.Lstat(hist); err == nil { // outside home; a link there is not followed
			add(hist, fi)
		}
	}
	for _, it := range plan.Items {
		l := idx[itemStore(it)]
		l.RemoveFiles += max(it.Files, 1)
		l.RemoveBytes += it.SizeBytes
	}
	return lines, nil
}

// reportLines returns the empty lines of the report, with paths and rules.
func reportLines(home string, r Rules) []StoreLine {
	var conds []string
	if r.SessionTTL > 0 {
		conds = append(conds, "not updated for "+config.FormatTTL(r.SessionTTL)+" (CHATCLI_SESSION_TTL)")
	}
	if r.KeepPerPrefix > 0 {
		conds = append(conds, fmt.Sprintf("beyond the %d newest (CHATCLI_SESSION_AUTOSAVE_KEEP)", r.KeepPerPrefix))
	}
	machine := "to the trash when " + strings.Join(conds, " or ") + "; never while open"
	if len(conds) == 0 {
		machine = "kept (CHATCLI_SESSION_TTL=0 and CHATCLI_SESSION_AUTOSAVE_KEEP=0)"
	}
	sessions := sessionsDir(home) + string(filepath.Separator)
	out := []StoreLine{{Store: storeNamed, Path: sessions, Rule: "never removed automatically"}}
	for _, p := range MachinePrefixes {
		out = append(out, StoreLine{Store: "sessions " + p, Path: sessions + p + "*", Rule: machine})
	}
	journals := "deleted when no session names them and not written for " + config.FormatTTL(r.SessionTTL) + " (CHATCLI_SESSION_TTL)"
	if r.SessionTTL <= 0 {
		journals = "kept (CHATCLI_SESSION_TTL=0)"
	}
	hist := fmt.Sprintf("the newest %d lines kept (HISTORY_MAX_SIZE), trimmed as you type", r.HistoryMaxLines)
	trash := "deleted " + config.FormatTTL(r.TrashTTL) + " after trashing; `chatcli session restore NAME` brings one back"
	if r.TrashTTL <= 0 {
		trash = "kept until `chatcli storage prune --empty-trash --apply`"
	}
	return append(out,
		StoreLine{Store: storeTranscripts, Path: transcriptsDir(home) + string(filepath.Separator), Rule: journals},
		StoreLine{Store: storeHistory, Path: r.historyFile(home), Rule: hist},
		StoreLine{Store: storeTrash, Path: filepath.Join(home, session.TrashDirName) + string(filepath.Separator), Rule: trash},
		StoreLine{Store: storeCheckpoints, Path: shadow.Dir(home) + string(filepath.Separator),
			Rule: "file checkpoints of coder mode, one repository per workspace: deleted when the workspace no longer exists"},
		StoreLine{Store: storeContexts, Path: filepath.Join(home, storeContexts) + string(filepath.Separator),
			Rule: "snapshots made by /context create: never removed automatically (/context delete NAME)"},
		StoreLine{Store: storeMemory, Path: filepath.Join(home, storeMemory) + string(filepath.Separator),
			Rule: "notes saved by /memory save: never removed automatically (/memory forget N)"},
		StoreLine{Store: storeTemp, Path: home + string(filepath.Separator), Rule: "hidden .*.tmp-* files left by interrupted writes: deleted after " + config.FormatTTL(r.TempTTL)},
		StoreLine{Store: storeOther, Path: home + string(filepath.Separator), Rule: "kept: no rule (list index, open markers, session locks, files set aside as .broken, anything else)"},
	)
}

// classify names the store a file under home belongs to.
func classify(home, hist, path string) string {
	base := filepath.Base(path)
	dir := filepath.Dir(path)
	switch {
	case path == hist:
		return storeHistory
	case strings.HasPrefix(path, shadow.Dir(home)+string(filepath.Separator)):
		return storeCheckpoints
	case dir == filepath.Dir(hist) && strings.HasPrefix(base, "."+filepath.Base(hist)+".tmp-"):
		return storeTemp
	}
	switch dir {
	case sessionsDir(home):
		if isTemp(base) {
			return storeTemp
		}
		if name, ok := strings.CutSuffix(base, ".json"); ok && !strings.HasPrefix(base, ".") {
			if p := MachinePrefix(name); p != "" {
				return "sessions " + p
			}
			return storeNamed
		}
	case transcriptsDir(home):
		if isTemp(base) {
			return storeTemp
		}
		if strings.HasSuffix(base, ".jsonl") && !strings.HasPrefix(base, ".") {
			return storeTranscripts
		}
	case filepath.Join(home, session.TrashDirName):
		if isTemp(base) {
			return storeTemp
		}
		return storeTrash
	case filepath.Join(home, storeContexts), filepath.Join(home, storeMemory):
		if isTemp(base) {
			return storeTemp
		}
		return filepath.Base(dir)
	}
	return storeOther
}

// itemStore names the store a plan item belongs to.
func itemStore(it Item) string {
	switch it.Kind {
	case KindSession:
		return "sessions " + MachinePrefix(it.Name)
	case KindJournal:
		return storeTranscripts
	case KindTrash:
		return storeTrash
	case KindCheckpoints:
		return storeCheckpoints
	}
	return storeTemp
}
