package retention

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/i18n"
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
	// Rule is the rule that governs the store, in words (English, as
	// every value of --json output).
	Rule string `json:"rule"`
	// StoreText and RuleText are Store and Rule as catalog texts, for
	// saying them in another language (i18n.Printer.Text).
	StoreText i18n.Text `json:"-"`
	RuleText  i18n.Text `json:"-"`
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
	ttl := config.FormatTTL(r.SessionTTL)
	var machine i18n.Text
	switch {
	case r.SessionTTL > 0 && r.KeepPerPrefix > 0:
		machine = i18n.Textf("to the trash when not updated for %s (CHATCLI_SESSION_TTL) or beyond the %d newest (CHATCLI_SESSION_AUTOSAVE_KEEP); never while open", ttl, r.KeepPerPrefix)
	case r.SessionTTL > 0:
		machine = i18n.Textf("to the trash when not updated for %s (CHATCLI_SESSION_TTL); never while open", ttl)
	case r.KeepPerPrefix > 0:
		machine = i18n.Textf("to the trash when beyond the %d newest (CHATCLI_SESSION_AUTOSAVE_KEEP); never while open", r.KeepPerPrefix)
	default:
		machine = i18n.Textf("kept (CHATCLI_SESSION_TTL=0 and CHATCLI_SESSION_AUTOSAVE_KEEP=0)")
	}
	sessions := sessionsDir(home) + string(filepath.Separator)
	out := []StoreLine{line(storeNamed, sessions, i18n.Textf("never removed automatically"))}
	for _, p := range MachinePrefixes {
		out = append(out, line("sessions "+p, sessions+p+"*", machine))
	}
	journals := i18n.Textf("deleted when no session names them and not written for %s (CHATCLI_SESSION_TTL)", ttl)
	if r.SessionTTL <= 0 {
		journals = i18n.Textf("kept (CHATCLI_SESSION_TTL=0)")
	}
	trash := i18n.Textf("deleted %s after trashing; `chatcli session restore NAME` brings one back", config.FormatTTL(r.TrashTTL))
	if r.TrashTTL <= 0 {
		trash = i18n.Textf("kept until `chatcli storage prune --empty-trash --apply`")
	}
	sep := string(filepath.Separator)
	return append(out,
		line(storeTranscripts, transcriptsDir(home)+sep, journals),
		line(storeHistory, r.historyFile(home),
			i18n.Textf("the newest %d lines kept (HISTORY_MAX_SIZE), trimmed as you type", r.HistoryMaxLines)),
		line(storeTrash, filepath.Join(home, session.TrashDirName)+sep, trash),
		line(storeCheckpoints, shadow.Dir(home)+sep,
			i18n.Textf("file checkpoints of coder mode, one repository per workspace: deleted when the workspace no longer exists")),
		line(storeContexts, filepath.Join(home, storeContexts)+sep,
			i18n.Textf("snapshots made by /context create: never removed automatically (/context delete NAME)")),
		line(storeMemory, filepath.Join(home, storeMemory)+sep,
			i18n.Textf("notes saved by /memory save: never removed automatically (/memory forget N)")),
		line(storeTemp, home+sep,
			i18n.Textf("hidden .*.tmp-* files left by interrupted writes: deleted after %s", config.FormatTTL(r.TempTTL))),
		line(storeOther, home+sep,
			i18n.Textf("kept: no rule (list index, open markers, session locks, files set aside as .broken, anything else)")),
	)
}

// line is the empty report line of the store named store at path, which
// rule governs.
func line(store, path string, rule i18n.Text) StoreLine {
	return StoreLine{Store: store, Path: path, Rule: rule.String(), StoreText: storeText(store), RuleText: rule}
}

// storeText is the catalog text of the store name store (its String is
// store).
func storeText(store string) i18n.Text {
	switch store {
	case storeNamed:
		return i18n.Textf("sessions you named")
	case storeTranscripts:
		return i18n.Textf("transcripts")
	case storeHistory:
		return i18n.Textf("input history")
	case storeTrash:
		return i18n.Textf("trash")
	case storeTemp:
		return i18n.Textf("temp files")
	case storeCheckpoints:
		return i18n.Textf("checkpoints")
	case storeContexts:
		return i18n.Textf("contexts")
	case storeMemory:
		return i18n.Textf("memory")
	case storeOther:
		return i18n.Textf("other files")
	}
	if p, ok := strings.CutPrefix(store, "sessions "); ok {
		return i18n.Textf("sessions %s", p)
	}
	return i18n.Textf("%s", store)
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
