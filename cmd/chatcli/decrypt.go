package main

import (
	"fmt"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/editor"
	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/memory"
	"github.com/chatcli/chatcli/internal/shadow"
)

const decryptLong = `Write every sealed session file, trashed session, journal, context, the
memory notes and the input history back as plaintext, opening each with the
key in CHATCLI_ENCRYPTION_KEY (a key or a passphrase): the way back to an
unencrypted store, for leaving chatcli or sharing the store with a program
that cannot read chatcli's encryption.

It asks first on a terminal; otherwise pass --yes. Each file is replaced in
one atomic write (a session's journal right before the session), so after an
interruption every file opens either with the key or without one: run it
again to finish. A journal line that does not open with the key while the
others do is left out, the journal kept whole as <id>.jsonl.broken first.
Afterwards unset CHATCLI_ENCRYPTION_KEY: with it set, chatcli seals what it
writes again. File checkpoints (coder mode) are not decrypted: each folder
of them still sealed is named, and without the key its checkpoints cannot be
restored and its workspace takes no new checkpoint until the folder is
removed. A sealed search index is removed last; the next search rebuilds it
in plaintext. Progress goes to stderr, one line per file changed; the summary
to stdout.`

type storageDecryptOptions struct {
	f    *factory
	Yes  bool
	JSON bool
}

func newStorageDecryptCmd(f *factory, runF func(*storageDecryptOptions) error) *cobra.Command {
	o := &storageDecryptOptions{f: f}
	cmd := &cobra.Command{
		Use:   "decrypt",
		Short: "Write every sealed file back as plaintext (CHATCLI_ENCRYPTION_KEY)",
		Long:  decryptLong,
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return storageDecryptRun(o)
		},
	}
	cmd.Flags().BoolVarP(&o.Yes, "yes", "y", false, "do not ask (required when stdin is not a terminal)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print {rekeyed (files decrypted), unchanged, failed: [{path, error}], damaged_lines_kept (lines left out)}")
	return cmd
}

func storageDecryptRun(o *storageDecryptOptions) error {
	c, st, err := o.f.configStore()
	if err != nil {
		return err
	}
	if c.EncryptionKey.IsZero() {
		return i18n.Errorf("%w: %s is not set: storage decrypt opens the sealed files with it", config.ErrConfig, config.EnvEncryptionKey)
	}
	if !o.Yes {
		if !o.f.streams.InTTY {
			return i18n.Errorf("%w: storage decrypt writes every session of %s in plaintext; pass --yes to confirm", errFlags, c.Home)
		}
		if !o.f.streams.confirm(o.f.lang(), o.f.lang().Sprintf("Write every session and journal of %s back as plaintext?", c.Home)) {
			return i18n.Errorf("%w: nothing decrypted", errFlags)
		}
	}
	targets, err := orderedTargets(st, filepath.Join(c.Home, "transcripts"), c.EncryptionKey, func(f storeFile) rekeyTarget {
		run := func() (bool, []journal.Warning, error) { return noDamage(st.DecryptFile(f.name, f.path)) }
		if f.kind == fileJournal {
			run = func() (bool, []journal.Warning, error) { return journal.Decrypt(f.path, c.EncryptionKey) }
		}
		return rekeyTarget{f.path, run}
	})
	if err != nil {
		return err
	}
	more, err := decryptBeyondSessions(c)
	if err != nil {
		return err
	}
	targets = append(targets, more...)
	if index.Sealed(st) {
		targets = append(targets, indexTarget(st)...) // last, as for rekey
	}
	sealedRepos, err := sealedCheckpoints(c.Home)
	if err != nil {
		return err
	}
	sum, errs, err := runTargets(o.f, "decrypt", i18n.Textf("written as plaintext"), i18n.Textf("sealed line that does not open left out"), targets)
	if err != nil {
		return err
	}
	lang := o.f.lang()
	line := lang.Sprintf("%d files written as plaintext, %d already plaintext, %d failed", sum.Rekeyed, sum.Unchanged, len(sum.Failed))
	if sum.DamagedKept > 0 {
		line += lang.Sprintf(", %d damaged journal lines left out (kept in .broken copies)", sum.DamagedKept)
	}
	if err := printSummary(o.f, o.JSON, sum, line); err != nil {
		return err
	}
	for _, d := range sealedRepos {
		lang.Fprintf(o.f.streams.Err, "decrypt: %s: file checkpoints stay encrypted: without %s they cannot be restored, and the workspace takes no new checkpoint until this folder is removed\n", d, config.EnvEncryptionKey)
	}
	if !o.JSON && len(errs) == 0 {
		if len(sealedRepos) > 0 {
			lang.Fprintf(o.f.streams.Out, "%d file-checkpoint folders stay encrypted, each listed above\n", len(sealedRepos))
		}
		lang.Fprintf(o.f.streams.Out, "unset %s now, or chatcli seals what it writes again\n", config.EnvEncryptionKey)
	}
	if len(errs) > 0 {
		return &rekeyError{errs: errs, decrypt: true}
	}
	return nil
}

// decryptBeyondSessions lists what else the key seals that decrypt writes
// back as plaintext: the input history when there is one, every context
// and the memory notes.
func decryptBeyondSessions(c config.Config) ([]rekeyTarget, error) {
	var out []rekeyTarget
	if fileExists(c.HistoryFile) {
		out = append(out, rekeyTarget{c.HistoryFile, func() (bool, []journal.Warning, error) {
			return noDamage(editor.DecryptHistory(c.HistoryFile, c.EncryptionKey))
		}})
	}
	cs := contexts.Open(c.Home, c.EncryptionKey)
	names, err := cs.List()
	if err != nil {
		return nil, fmt.Errorf("storage decrypt: %w", err)
	}
	for _, n := range names {
		out = append(out, rekeyTarget{filepath.Join(cs.Dir(), n+".json"), func() (bool, []journal.Warning, error) { return noDamage(cs.Decrypt(n)) }})
	}
	if m := memory.Open(c.Home, c.EncryptionKey); fileExists(m.Path()) {
		out = append(out, rekeyTarget{m.Path(), func() (bool, []journal.Warning, error) { return noDamage(m.Decrypt()) }})
	}
	return out, nil
}

// sealedCheckpoints returns the file-checkpoint folders under home that
// are in sealed form.
func sealedCheckpoints(home string) ([]string, error) {
	repos, err := shadow.List(home)
	if err != nil {
		return nil, fmt.Errorf("storage decrypt: %w", err)
	}
	var out []string
	for _, in := range repos {
		if shadow.Sealed(in.Dir) {
			out = append(out, in.Dir)
		}
	}
	return out, nil
}
