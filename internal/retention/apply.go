package retention

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/shadow"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Result is what Apply did.
type Result struct {
	// Removed are the items carried out: sessions moved to the trash, other
	// files deleted.
	Removed []Item `json:"removed"`
	// Skipped are items left alone because the store changed since the
	// plan (a session opened or updated, a journal named or written, a
	// file already gone).
	Skipped []Spared `json:"skipped,omitempty"`
}

// Count returns how many removed items had reason r.
func (r Result) Count(reason Reason) int {
	n := 0
	for _, it := range r.Removed {
		if it.Reason == reason {
			n++
		}
	}
	return n
}

// SizeBytes is the total size of the removed items.
func (r Result) SizeBytes() int64 {
	var n int64
	for _, it := range r.Removed {
		n += it.SizeBytes
	}
	return n
}

// Apply carries out a plan: sessions go to the trash (dated by the plan's
// Now), journals, temp files and expired trash entries are deleted, and so
// are checkpoint repositories whose workspace is still gone (one in use is
// left). Each
// item is checked again first and skipped when the store changed in a way
// that would spare it. Apply goes on past failures and returns them joined;
// nothing to do is not an error.
func Apply(p PrunePlan) (Result, error) { return apply(context.Background(), p) }

func apply(ctx context.Context, p PrunePlan) (Result, error) {
	res := Result{Removed: []Item{}}
	if len(p.Items) == 0 {
		return res, nil
	}
	st, err := openStore(p.Home, p.Rules.Key)
	if err != nil {
		return res, err
	}
	st.SetClock(func() time.Time { return p.Now })
	refs, unknown, listed, err := currentRefs(st)
	if err != nil {
		return res, err
	}
	var errs []error
	synced := map[string]bool{}
	for _, it := range p.Items {
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		var why i18n.Text
		var err error
		switch it.Kind {
		case KindSession:
			why, err = trashSession(st, p.Home, it, listed)
		case KindJournal:
			if refs[it.Name] {
				why = i18n.Textf("now named by a session")
				break
			}
			if len(unknown) > 0 {
				why = i18n.Textf("a session file cannot be read now and may name it")
				break
			}
			why, err = removeJournal(it)
		case KindCheckpoints:
			why, err = shadow.RemoveIfGone(it.Path)
		case KindLegacyLock:
			why, err = removeLegacyLock(it)
		default:
			why, err = removeFile(it)
			synced[filepath.Dir(it.Path)] = true
		}
		switch {
		case err != nil:
			errs = append(errs, err)
		case !why.IsZero():
			res.Skipped = append(res.Skipped, spared(it.Name, why))
		default:
			res.Removed = append(res.Removed, it)
		}
	}
	for dir := range synced {
		errs = append(errs, atomicfile.SyncDir(dir))
	}
	return res, errors.Join(errs...)
}

// currentRefs re-reads which journals sessions and trashed sessions name;
// it also returns the sessions' headers, by name, as it listed them.
func currentRefs(st *session.Store) (map[string]bool, []string, map[string]session.Header, error) {
	list, err := st.List()
	if err != nil {
		return nil, nil, nil, err
	}
	trash, err := st.TrashList()
	if err != nil {
		return nil, nil, nil, err
	}
	refs, unknown := journalRefs(list, trash)
	listed := make(map[string]session.Header, len(list))
	for _, h := range list {
		listed[h.Name] = h
	}
	return refs, unknown, listed, nil
}

// trashSession moves a session to the trash while holding its open marker
// exclusively, so no process can bind to it meanwhile. It returns why it
// was skipped, if it was. The session's header comes from listed (apply's
// listing) while its file is unchanged since (session.Store.Unchanged), so
// a file in another program's layout, whose header takes reading all of
// it, is not read again; a changed file is read again.
func trashSession(st *session.Store, home string, it Item, listed map[string]session.Header) (i18n.Text, error) {
	if err := markersDir(home); err != nil {
		return i18n.Text{}, fmt.Errorf("retention: check whether %q is open: %w", it.Name, err)
	}
	lock, err := lockAt(context.Background(), markerPath(home, it.Name), true, false)
	if err != nil {
		return i18n.Text{}, fmt.Errorf("retention: check whether %q is open: %w", it.Name, err)
	}
	if lock == nil {
		return i18n.Textf("open in a running chatcli"), nil
	}
	defer func() {
		os.Remove(lock.Path())
		lock.Unlock()
	}()
	legacy, err := lockAt(context.Background(), legacyMarkerPath(home, it.Name), true, false)
	if err != nil {
		return i18n.Text{}, fmt.Errorf("retention: check whether %q is open: %w", it.Name, err)
	}
	if legacy == nil {
		return i18n.Textf("open in a running chatcli (an older build)"), nil
	}
	defer func() {
		os.Remove(legacy.Path())
		legacy.Unlock()
	}()
	h, ok := listed[it.Name]
	err = h.Err
	if !ok || !st.Unchanged(h) {
		h, err = st.Stat(it.Name)
	}
	switch {
	case errors.Is(err, session.ErrNotFound):
		return i18n.Textf("already gone"), nil
	case err != nil:
		return i18n.Textf("unreadable now"), nil
	case !h.UpdatedAt.Equal(it.When):
		return i18n.Textf("updated since the plan"), nil
	}
	if _, err := st.Trash(it.Name); err != nil {
		if errors.Is(err, session.ErrNotFound) {
			return i18n.Textf("already gone"), nil
		}
		return i18n.Text{}, err
	}
	return i18n.Text{}, nil
}

// removeJournal deletes an orphan journal unless it is being appended to
// (its lock is held) or was written since the plan.
func removeJournal(it Item) (i18n.Text, error) {
	lock, err := storefile.NewLock(it.Path, os.O_RDONLY)
	ok := false
	if err == nil {
		ok, err = lock.TryLock()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return i18n.Textf("already gone"), nil
	}
	if err != nil {
		return i18n.Text{}, fmt.Errorf("retention: lock %s: %w", it.Path, err)
	}
	if !ok {
		return i18n.Textf("being written"), nil
	}
	defer lock.Unlock()
	if why := changed(it); !why.IsZero() {
		return why, nil
	}
	if err := os.Remove(it.Path); err != nil {
		return i18n.Text{}, fmt.Errorf("retention: remove %s: %w", it.Path, err)
	}
	return i18n.Text{}, atomicfile.SyncDir(filepath.Dir(it.Path))
}

// removeFile deletes a temp file or an expired trash entry (the caller
// syncs the folder).
func removeFile(it Item) (i18n.Text, error) {
	if it.Kind == KindTemp {
		if why := changed(it); !why.IsZero() {
			return why, nil
		}
	}
	if err := os.Remove(it.Path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return i18n.Textf("already gone"), nil
		}
		return i18n.Text{}, fmt.Errorf("retention: remove %s: %w", it.Path, err)
	}
	return i18n.Text{}, nil
}

// changed says why a file measured by mtime may no longer be removed.
func changed(it Item) i18n.Text {
	fi, err := os.Lstat(it.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return i18n.Textf("already gone")
	case err != nil:
		return i18n.Textf("cannot be read: %v", err)
	case !fi.ModTime().Equal(it.When):
		return i18n.Textf("written since the plan")
	}
	return i18n.Text{}
}

// DropJournals deletes the journals of ids that no session and no trashed
// session names any more, and returns the ids deleted: when the trash is
// emptied, the conversations go for good, their journals with them. While a
// session or trash entry cannot be read (it might name one), nothing is
// deleted.
func DropJournals(st *session.Store, home string, ids []string) ([]string, error) {
	refs, unknown, _, err := currentRefs(st)
	if err != nil || len(unknown) > 0 {
		return nil, err
	}
	var gone []string
	var errs []error
	for _, id := range ids {
		if id == "" || refs[id] || !journal.ValidID(id) {
			continue
		}
		err := os.Remove(journal.Path(transcriptsDir(home), id))
		switch {
		case err == nil:
			gone = append(gone, id)
		case !errors.Is(err, fs.ErrNotExist):
			errs = append(errs, err)
		}
	}
	if len(gone) > 0 {
		errs = append(errs, atomicfile.SyncDir(transcriptsDir(home)))
	}
	return gone, errors.Join(errs...)
}
