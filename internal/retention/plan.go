package retention

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/shadow"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Reason says which rule removes an item. Plans list items in the order of
// Reasons.
type Reason string

// The rules, as plans and reports name them.
const (
	ReasonTTL           Reason = "TTL"
	ReasonKeepCount     Reason = "keep-count"
	ReasonOrphanJournal Reason = "orphan journal"
	ReasonTemp          Reason = "leftover temp file"
	ReasonExpiredTrash  Reason = "expired trash"
	ReasonWorkspaceGone Reason = "workspace gone"
)

// Reasons lists every reason in plan order.
var Reasons = []Reason{ReasonTTL, ReasonKeepCount, ReasonOrphanJournal, ReasonTemp, ReasonExpiredTrash, ReasonWorkspaceGone}

// Kind is what an item is, which decides how Apply removes it.
type Kind string

// Item kinds: sessions go to the trash; the others are deleted.
const (
	KindSession Kind = "session"
	KindJournal Kind = "journal"
	KindTemp    Kind = "temp file"
	KindTrash   Kind = "trashed session"
	// KindCheckpoints is the shadow repository of a workspace (package
	// shadow): a folder, deleted whole.
	KindCheckpoints Kind = "checkpoint repository"
	// KindLegacyLock is a lock file or open marker an older build left in
	// sessions/ (legacy.go): removed only while no process holds it.
	KindLegacyLock Kind = "older build's lock"
)

// Item is one thing a plan would remove.
type Item struct {
	Reason Reason `json:"reason"`
	Kind   Kind   `json:"kind"`
	// Name is the session name (sessions and trash entries), the journal
	// id, the temp file's base name, or the workspace a checkpoint
	// repository recorded.
	Name      string `json:"name"`
	Path      string `json:"path"`
	SizeBytes int64  `json:"size_bytes"`
	// When is the time the rule measured: stored updated_at for sessions,
	// mtime for journals and temp files, the time it was trashed for trash
	// entries, the last change of a checkpoint repository's state.
	When time.Time `json:"when"`
	// Files is the number of files a folder item holds (checkpoint
	// repositories); 0 for single files.
	Files int `json:"files,omitempty"`
}

// Spared is something a rule would have removed but that is kept, and why.
type Spared struct {
	Name string `json:"name"`
	Why  string `json:"why"`
	// WhyText is Why as a catalog text, for output in another language;
	// zero when Why has none.
	WhyText i18n.Text `json:"-"`
}

// spared is the Spared of name, kept for why.
func spared(name string, why i18n.Text) Spared {
	return Spared{Name: name, Why: why.String(), WhyText: why}
}

// PrunePlan is what the rules would remove from the store under Home at
// Now.
type PrunePlan struct {
	Home  string    `json:"home"`
	Rules Rules     `json:"-"`
	Now   time.Time `json:"now"`
	// Items are ordered by Reasons, then oldest first, then by name.
	Items  []Item   `json:"items"`
	Spared []Spared `json:"spared,omitempty"`
}

// Group is the items of one reason.
type Group struct {
	Reason    Reason
	Items     []Item
	SizeBytes int64
}

// Groups returns the plan's items by reason, in Reasons order, omitting
// reasons with no items.
func (p PrunePlan) Groups() []Group {
	var out []Group
	for _, r := range Reasons {
		g := Group{Reason: r}
		for _, it := range p.Items {
			if it.Reason == r {
				g.Items = append(g.Items, it)
				g.SizeBytes += it.SizeBytes
			}
		}
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// SizeBytes is the total size of the plan's items.
func (p PrunePlan) SizeBytes() int64 {
	var n int64
	for _, it := range p.Items {
		n += it.SizeBytes
	}
	return n
}

// Plan lists what rules would remove from the store under home at now,
// changing nothing (it may refresh the sessions folder's derived list
// index). A missing store is an empty plan.
func Plan(home string, rules Rules, now time.Time) (PrunePlan, error) {
	home = filepath.Clean(home)
	p := PrunePlan{Home: home, Rules: rules, Now: now, Items: []Item{}}
	st, err := openStore(home, rules.Key)
	if err != nil {
		return p, err
	}
	list, err := st.List()
	if err != nil {
		return p, err
	}
	trash, err := st.TrashList()
	if err != nil {
		return p, err
	}
	p.planSessions(list)
	if err := p.planJournals(list, trash); err != nil {
		return p, err
	}
	if err := p.planTemps(); err != nil {
		return p, err
	}
	if rules.TrashTTL > 0 {
		for _, e := range trash {
			if now.Sub(e.TrashedAt) > rules.TrashTTL {
				p.Items = append(p.Items, Item{Reason: ReasonExpiredTrash, Kind: KindTrash, Name: e.Name, Path: e.Path,
					SizeBytes: e.SizeBytes, When: e.TrashedAt})
			}
		}
	}
	if err := p.planCheckpoints(); err != nil {
		return p, err
	}
	p.sort()
	return p, nil
}

// planCheckpoints applies the workspace gone rule to the shadow
// repositories of coder mode.
func (p *PrunePlan) planCheckpoints() error {
	repos, err := shadow.List(p.Home)
	if err != nil {
		return err
	}
	for _, in := range repos {
		switch {
		case in.Err != nil:
			p.Spared = append(p.Spared, spared(in.Dir, i18n.Textf("checkpoint repository of an unknown workspace: %v", in.Err)))
		case in.Gone:
			p.Items = append(p.Items, Item{Reason: ReasonWorkspaceGone, Kind: KindCheckpoints, Name: in.Workspace,
				Path: in.Dir, SizeBytes: in.SizeBytes, When: in.ModTime, Files: in.Files})
		}
	}
	return nil
}

// openStore opens the sessions folder under home, with encryption key k.
func openStore(home string, k seal.Key) (*session.Store, error) {
	st, err := session.Open(sessionsDir(home))
	if err == nil {
		st.SetKey(k)
		st.SetJournalDir(filepath.Join(home, "transcripts"))
	}
	return st, err
}

// planSessions applies TTL and keep-count to the machine sessions of list
// (ordered as session list shows them: newest first, ties by name).
func (p *PrunePlan) planSessions(list []session.Header) {
	seen := map[string]int{} // sessions ranked so far, per prefix
	for _, h := range list {
		prefix := MachinePrefix(h.Name)
		if prefix == "" {
			continue // named by a person: never removed automatically
		}
		if h.Err != nil {
			p.Spared = append(p.Spared, spared(h.Name, i18n.Textf("unreadable: %v", h.Err)))
			continue
		}
		seen[prefix]++
		it := Item{Kind: KindSession, Name: h.Name, SizeBytes: h.SizeBytes, When: h.UpdatedAt,
			Path: filepath.Join(sessionsDir(p.Home), h.Name+".json")}
		switch {
		case p.Rules.SessionTTL > 0 && p.Now.Sub(h.UpdatedAt) > p.Rules.SessionTTL:
			it.Reason = ReasonTTL
		case p.Rules.KeepPerPrefix > 0 && seen[prefix] > p.Rules.KeepPerPrefix:
			it.Reason = ReasonKeepCount
		default:
			continue
		}
		if isOpen(p.Home, h.Name) {
			p.Spared = append(p.Spared, spared(h.Name, i18n.Textf("open in a running chatcli (%s)", it.Reason)))
			continue
		}
		p.Items = append(p.Items, it)
	}
}

// journalRefs returns the journal ids that sessions and trashed sessions
// name, and the names of those that cannot be read (and so might name
// any).
func journalRefs(list []session.Header, trash []session.TrashEntry) (map[string]bool, []string) {
	refs := map[string]bool{}
	var unknown []string
	for _, h := range list {
		refs[h.TranscriptID] = true
		if h.Err != nil {
			unknown = append(unknown, h.Name)
		}
	}
	for _, e := range trash {
		refs[e.TranscriptID] = true
		if e.Err != nil {
			unknown = append(unknown, "trash/"+e.File)
		}
	}
	return refs, unknown
}

// planJournals applies the orphan journal rule.
func (p *PrunePlan) planJournals(list []session.Header, trash []session.TrashEntry) error {
	if p.Rules.SessionTTL <= 0 {
		return nil
	}
	refs, unknown := journalRefs(list, trash)
	for _, h := range list {
		if h.TranscriptID == "" { // rewritten by ChatCLI: its link still names the journal
			refs[session.LinkedJournal(transcriptsDir(p.Home), h.Name)] = true
		}
	}
	files, err := readDir(transcriptsDir(p.Home))
	if err != nil {
		return err
	}
	if len(unknown) > 0 {
		p.Spared = append(p.Spared, spared("orphan journals", i18n.Textf("not checked: %d session files cannot be read and may name one (%s)",
			len(unknown), strings.Join(unknown, ", "))))
		return nil
	}
	for _, fi := range files {
		id, ok := strings.CutSuffix(fi.Name(), ".jsonl")
		if !ok || !journal.ValidID(id) || refs[id] || p.Now.Sub(fi.ModTime()) <= p.Rules.SessionTTL {
			continue
		}
		p.Items = append(p.Items, Item{Reason: ReasonOrphanJournal, Kind: KindJournal, Name: id,
			Path: journal.Path(transcriptsDir(p.Home), id), SizeBytes: fi.Size(), When: fi.ModTime()})
	}
	return nil
}

// tempDirs are the folders swept for leftover temp files, each with a
// filter on base names.
func (p *PrunePlan) tempDirs() map[string]func(string) bool {
	hist := p.Rules.historyFile(p.Home)
	histPrefix := "." + filepath.Base(hist) + ".tmp-"
	dirs := map[string]func(string) bool{
		sessionsDir(p.Home):                         isTemp,
		transcriptsDir(p.Home):                      isTemp,
		filepath.Join(p.Home, session.TrashDirName): isTemp,
		filepath.Dir(hist):                          func(f string) bool { return strings.HasPrefix(f, histPrefix) },
	}
	return dirs
}

// planTemps applies the leftover temp file rule.
func (p *PrunePlan) planTemps() error {
	if p.Rules.TempTTL <= 0 {
		return nil
	}
	for dir, match := range p.tempDirs() {
		files, err := readDir(dir)
		if err != nil {
			return err
		}
		for _, fi := range files {
			kind := KindTemp
			if dir == sessionsDir(p.Home) && isLegacyLock(fi.Name()) {
				kind = KindLegacyLock
			} else if !match(fi.Name()) {
				continue
			}
			if p.Now.Sub(fi.ModTime()) > p.Rules.TempTTL {
				p.Items = append(p.Items, Item{Reason: ReasonTemp, Kind: kind, Name: fi.Name(),
					Path: filepath.Join(dir, fi.Name()), SizeBytes: fi.Size(), When: fi.ModTime()})
			}
		}
	}
	return nil
}

// readDir returns the regular files of dir; a missing dir has none, and
// a dir that is a link is an error wrapping storefile.ErrNotRegular.
func readDir(dir string) ([]fs.FileInfo, error) {
	err := storefile.Dir(dir) // a link to a folder elsewhere is never pruned through
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var ents []fs.DirEntry
	if err == nil {
		ents, err = os.ReadDir(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("retention: read %s: %w", dir, err)
	}
	var out []fs.FileInfo
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil {
			out = append(out, fi)
		}
	}
	return out, nil
}

func (p *PrunePlan) sort() {
	rank := map[Reason]int{}
	for i, r := range Reasons {
		rank[r] = i
	}
	sort.SliceStable(p.Items, func(i, j int) bool {
		a, b := p.Items[i], p.Items[j]
		if a.Reason != b.Reason {
			return rank[a.Reason] < rank[b.Reason]
		}
		if !a.When.Equal(b.When) {
			return a.When.Before(b.When)
		}
		return a.Path < b.Path
	})
}
