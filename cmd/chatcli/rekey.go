package main

import (
	"fmt"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/memory"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

const rekeyLong = `Re-seal every session file, trashed session, journal, file checkpoint (coder
mode), context, the memory notes and the input history under the key in
CHATCLI_ENCRYPTION_KEY, opening sealed files with that key or with the old
key in CHATCLI_ENCRYPTION_KEY_OLD. Plaintext files are sealed too, so running
it without CHATCLI_ENCRYPTION_KEY_OLD encrypts a plaintext store. The
search index is removed last (the next search rebuilds it under the new key).

Each file is replaced in one atomic write: at every moment it opens with the
old key or the new one. After an interruption, run it again to finish.
Progress goes to stderr, one line per file changed; the summary to stdout.`

type storageRekeyOptions struct {
	f    *factory
	JSON bool
}

// rekeyAfterFile is a seam for tests: called after each file is handled,
// with the count handled so far; an error stops the run there, as an
// interruption would.
var rekeyAfterFile = func(done int) error { return nil }

// rekeySummary is the result of `storage rekey` (--json prints it).
type rekeySummary struct {
	Rekeyed   int           `json:"rekeyed"`
	Unchanged int           `json:"unchanged"`
	Failed    []rekeyFailed `json:"failed"`
	// DamagedKept counts the journal lines that open with neither key
	// among lines that do (torn by a crash, damaged): kept as they were.
	DamagedKept int `json:"damaged_lines_kept"`
}

type rekeyFailed struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

func newStorageRekeyCmd(f *factory, runF func(*storageRekeyOptions) error) *cobra.Command {
	o := &storageRekeyOptions{f: f}
	cmd := &cobra.Command{
		Use:   "rekey",
		Short: "Re-seal every file under a new CHATCLI_ENCRYPTION_KEY",
		Long:  rekeyLong,
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return storageRekeyRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print {rekeyed, unchanged, failed: [{path, error}], damaged_lines_kept}")
	return cmd
}

// rekeyTarget is one file to re-seal: run reports whether it changed and
// the damaged journal lines it kept.
type rekeyTarget struct {
	path string
	run  func() (bool, []journal.Warning, error)
}

// contextRekeyTargets are the contexts and the memory notes file.
func contextRekeyTargets(c config.Config, old seal.Key) ([]rekeyTarget, error) {
	cs := contexts.Open(c.Home, c.EncryptionKey)
	names, err := cs.List()
	if err != nil {
		return nil, fmt.Errorf("storage rekey: %w", err)
	}
	var out []rekeyTarget
	for _, n := range names {
		out = append(out, rekeyTarget{filepath.Join(cs.Dir(), n+".json"), func() (bool, []journal.Warning, error) { return noDamage(cs.Rekey(n, old)) }})
	}
	if m := memory.Open(c.Home, c.EncryptionKey); fileExists(m.Path()) {
		out = append(out, rekeyTarget{m.Path(), func() (bool, []journal.Warning, error) { return noDamage(m.Rekey(old)) }})
	}
	return out, nil
}

// noDamage adapts a rekey that keeps no damaged lines (a session file).
func noDamage(changed bool, err error) (bool, []journal.Warning, error) { return changed, nil, err }

func storageRekeyRun(o *storageRekeyOptions) error {
	c, st, err := o.f.configStore()
	if err != nil {
		return err
	}
	if c.EncryptionKey.IsZero() {
		return i18n.Errorf("%w: %s is not set: storage rekey seals the store under it", config.ErrConfig, config.EnvEncryptionKey)
	}
	old, err := c.OldKey()
	if err != nil {
		return err
	}
	targets, err := rekeyTargets(st, filepath.Join(c.Home, "transcripts"), old, c.EncryptionKey) // journals too when the journal is now off
	if err != nil {
		return err
	}
	more, err := rekeyBeyondSessions(c, old)
	if err != nil {
		return err
	}
	targets = append(targets, more...)
	targets = append(targets, indexTarget(st)...)
	sum, errs, err := runTargets(o.f, "rekey", i18n.Textf("sealed under the new key"), i18n.Textf("damaged line kept as it was"), targets)
	if err != nil {
		return err
	}
	lang := o.f.lang()
	line := lang.Sprintf("%d files re-sealed, %d already under the new key, %d failed", sum.Rekeyed, sum.Unchanged, len(sum.Failed))
	if sum.DamagedKept > 0 {
		line += lang.Sprintf(", %d damaged journal lines kept as they were", sum.DamagedKept)
	}
	if err := printSummary(o.f, o.JSON, sum, line); err != nil {
		return err
	}
	if len(errs) > 0 {
		return &rekeyError{errs: errs}
	}
	return nil
}

// runTargets runs each target in turn, saying on stderr what happened to
// each file ("<label>: <path>: <changed>", damaged lines with what, both
// in the process's language) and counting it. The error is
// rekeyAfterFile's (an interruption); errs are the files' own.
func runTargets(f *factory, label string, changed, damagedWhat i18n.Text, targets []rekeyTarget) (sum rekeySummary, errs []error, err error) {
	sum.Failed = []rekeyFailed{}
	lang := f.lang()
	for i, t := range targets {
		ok, damaged, err := t.run()
		for _, w := range damaged {
			sum.DamagedKept++
			fmt.Fprintf(f.streams.Err, "%s: %s:%d: %s (%s)\n", label, w.Path, w.Line, lang.Text(damagedWhat), command.TextIn(lang.Plain(), w.Reason))
		}
		switch {
		case err != nil:
			sum.Failed = append(sum.Failed, rekeyFailed{t.path, err.Error()})
			errs = append(errs, err)
			fmt.Fprintf(f.streams.Err, "%s: %s: %v\n", label, t.path, lang.Error(err, nil))
		case ok:
			sum.Rekeyed++
			fmt.Fprintf(f.streams.Err, "%s: %s: %s\n", label, t.path, lang.Text(changed))
		default:
			sum.Unchanged++
		}
		if err := rekeyAfterFile(i + 1); err != nil {
			return sum, errs, err
		}
	}
	return sum, errs, nil
}

// printSummary prints sum: as JSON, or as line, the summary for a person.
func printSummary(f *factory, asJSON bool, sum rekeySummary, line string) error {
	if asJSON {
		return writeJSON(f, sum)
	}
	fmt.Fprintln(f.streams.Out, line)
	return nil
}

// rekeyError ends a rekey run in which files failed: its text counts them
// (each was reported on stderr as it failed, and --json lists them); it
// wraps each failure, so the exit status keeps their class.
// decrypt is set for storage decrypt's run.
type rekeyError struct {
	errs    []error
	decrypt bool
}

func (e *rekeyError) Error() string { return e.Said().Error() }

// Said implements i18n.Sayer.
func (e *rekeyError) Said() error {
	if e.decrypt {
		return i18n.Errorf("storage decrypt: %d files could not be written as plaintext, each listed above (they are unchanged; run it again with the key that sealed them)", len(e.errs))
	}
	return i18n.Errorf("storage rekey: %d files could not be re-sealed, each listed above (they are unchanged; set CHATCLI_ENCRYPTION_KEY_OLD to the key that sealed them and run it again)", len(e.errs))
}

func (e *rekeyError) Unwrap() []error { return e.errs }

// rekeyTargets lists the session files, trashed sessions and journals, in
// a stable order: each session's journal right before the session (a
// session file is the snapshot of its journal and is read with it, so
// an interrupted rekey leaves at most the pair it was in on two keys),
// then the trashed sessions, then the journals no session names.
func rekeyTargets(st *session.Store, journalDir string, old, nw seal.Key) ([]rekeyTarget, error) {
	return orderedTargets(st, journalDir, old, func(f storeFile) rekeyTarget {
		run := func() (bool, []journal.Warning, error) { return noDamage(st.RekeyFile(f.name, f.path, old)) }
		if f.kind == fileJournal {
			run = func() (bool, []journal.Warning, error) { return journal.Rekey(f.path, old, nw) }
		}
		return rekeyTarget{f.path, run}
	})
}

// orderedTargets makes a target of every file of the store (target), in
// rekeyTargets' order; old is the key besides the store's that may open a
// session's header.
func orderedTargets(st *session.Store, journalDir string, old seal.Key, target func(storeFile) rekeyTarget) ([]rekeyTarget, error) {
	files, err := storeFiles(st, journalDir)
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	journals := map[string]storeFile{}
	for _, f := range files {
		if f.kind == fileJournal {
			journals[f.path] = f
		}
	}
	out := make([]rekeyTarget, 0, len(files))
	for _, f := range files {
		if f.kind == fileSession {
			if id := transcriptOf(st, f.name, old); id != "" && journalDir != "" {
				if j, ok := journals[journal.Path(journalDir, id)]; ok {
					out = append(out, target(j))
					delete(journals, j.path)
				}
			}
		}
		if f.kind != fileJournal {
			out = append(out, target(f))
		}
	}
	for _, f := range files {
		if _, ok := journals[f.path]; ok && f.kind == fileJournal {
			out = append(out, target(f))
		}
	}
	return out, nil
}

// transcriptOf is the journal id session name's header names, read with
// the store's key or else the old one; "" when neither opens it. It reads
// through stores of its own, so a key that does not open the file is
// never held against the store doing the rekey (session.Store.KeyRefusal).
func transcriptOf(st *session.Store, name string, old seal.Key) string {
	for _, k := range []seal.Key{st.Key(), old} {
		view, err := session.Open(st.Dir())
		if err != nil {
			return ""
		}
		view.SetKey(k)
		if h, err := view.StatFile(name); err == nil {
			return h.TranscriptID
		}
	}
	return ""
}

// indexTarget is the last step of rekey and decrypt: removing the search
// index, which holds the text of every file before it under the old
// setting (the old key, or sealed when the store is now plaintext); the
// next search rebuilds it. Empty when there is no index folder.
func indexTarget(st *session.Store) []rekeyTarget {
	dir := index.Dir(st)
	if !fileExists(dir) {
		return nil
	}
	return []rekeyTarget{{dir, func() (bool, []journal.Warning, error) { return noDamage(index.Drop(st)) }}}
}
