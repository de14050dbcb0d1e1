package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/importer"
	"github.com/chatcli/chatcli/internal/recent"
)

const importLong = `Import the conversations another tool stored, one named session per
conversation, each with its journal, so session list, show, search, export,
--resume and -c treat them like any other:

  claude-code  Claude Code's JSONL files under ~/.claude/projects
               (or $CLAUDE_CONFIG_DIR/projects)
  codex        Codex's rollouts under ~/.codex/sessions ($CODEX_HOME/sessions)
  gemini       Gemini CLI's chats under ~/.gemini/tmp
  opencode     files written by ` + "`opencode export SESSION_ID > FILE`" + ` (name them)

PATH arguments name files or folders to read instead. Text, tool calls and
their results, titles, times and working folders are kept. Sessions are named
<tool>-<title>-<id end>, e.g. claude-fix-the-login-bug-4f2a9c1e.

Running it again imports only what is new: messages added to an imported
conversation since are appended to its session, nothing is written twice
($CHATCLI_HOME/imports.json records what was imported). Lines that cannot be
read are skipped, counted and named (file:line) on stderr; a file that cannot
be read at all is reported and the others are imported. The summary goes to
stdout; the exit status is 1 when a file failed.`

type importOptions struct {
	f      *factory
	Tool   string
	Paths  []string
	DryRun bool
}

func newImportCmd(f *factory, runF func(*importOptions) error) *cobra.Command {
	o := &importOptions{f: f}
	cmd := &cobra.Command{
		Use:   "import claude-code|codex|gemini|opencode [PATH...]",
		Short: "Import Claude Code, Codex, Gemini CLI or opencode conversations",
		Long:  importLong,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return i18n.Errorf("%w: name the tool to import from (claude-code, codex, gemini or opencode); see %s --help", errFlags, cmd.CommandPath())
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			o.Tool, o.Paths = args[0], args[1:]
			if runF != nil {
				return runF(o)
			}
			return importRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "read everything and say what would be imported, writing nothing")
	return cmd
}

// importSummary counts what an import run did.
type importSummary struct {
	files, failed, conversations, created, updated, unchanged, messages, skipped int
}

// text is the summary's line.
func (s importSummary) text() i18n.Text {
	return i18n.Textf("%d conversations in %d files: %d new sessions, %d updated, %d unchanged, %d messages written, %d lines skipped, %d files failed",
		s.conversations, s.files, s.created, s.updated, s.unchanged, s.messages, s.skipped, s.failed)
}

// problemsShown caps the skipped lines named per file.
const problemsShown = 5

func importRun(o *importOptions) (err error) {
	src, err := importer.Lookup(o.Tool)
	if err != nil {
		return i18n.Errorf("%w: %v", errFlags, err)
	}
	files, err := src.Files(o.f.getenv, o.Paths)
	if err != nil {
		return err
	}
	c, st, err := o.f.configStore()
	if err != nil {
		return err
	}
	if err := st.AutoWriteRefusal(); err != nil {
		return err
	}
	rec, err := importer.OpenRecord(c.Home)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := rec.Close(); cerr != nil {
			err = i18n.Join(err, cerr) // the sessions are written; the next run finds them
		}
	}()
	w := &importer.Writer{Store: st, JournalDir: c.TranscriptsDir(), Record: rec, DryRun: o.DryRun, Now: time.Now}
	progress, lang := newImportProgress(o.f.streams, len(files)), o.f.lang()
	var sum importSummary
	var errs []error
	var waiting []importer.Conversation
	for i, file := range files {
		progress.show(i)
		convs, problems, err := src.Read(file)
		sum.files++
		sum.skipped += len(problems)
		for j, p := range problems {
			if j == problemsShown {
				progress.say("%s", lang.Sprintf("import: %s: %d more lines skipped", file, len(problems)-problemsShown))
				break
			}
			progress.say("%s", command.TextIn(lang, i18n.Textf("import: %s: %v", p.Where(), p.Reason)))
		}
		if err != nil {
			sum.failed++
			errs = append(errs, err)
			progress.say("%s", command.TextIn(lang, i18n.Textf("import: %s: %v", file, err)))
			continue
		}
		for _, conv := range convs {
			if w.Waiting(conv) { // resumed from a conversation later in the run
				waiting = append(waiting, conv)
				continue
			}
			if err := importOne(o, w, progress, c.Home, src.Prefix, conv, &sum); err != nil {
				sum.failed++
				errs = append(errs, err)
				progress.say("%s", command.TextIn(lang, i18n.Textf("import: %s: %v", file, err)))
			}
		}
	}
	for conv := range w.Later(waiting) {
		if err := importOne(o, w, progress, c.Home, src.Prefix, conv, &sum); err != nil {
			sum.failed++
			errs = append(errs, err)
			progress.say("%s", command.TextIn(lang, i18n.Textf("import: %s: %v", conv.Path, err)))
		}
	}
	progress.clear()
	if o.DryRun {
		lang.Fprintf(o.f.streams.Out, "would import (dry run) %s: %s\n", src.Name, lang.Text(sum.text()))
	} else {
		lang.Fprintf(o.f.streams.Out, "imported %s: %s\n", src.Name, lang.Text(sum.text()))
	}
	if len(errs) > 0 {
		return i18n.Errorf("import: %d files failed, each named above: %w", sum.failed, i18n.Join(errs...))
	}
	return nil
}

// importOne imports one conversation and counts it.
func importOne(o *importOptions, w *importer.Writer, progress *importProgress, home, prefix string, conv importer.Conversation, sum *importSummary) error {
	sum.conversations++
	out, err := w.Import(prefix, conv)
	if err != nil {
		return i18n.Errorf("session %s: %w", out.Session, err)
	}
	for _, fix := range out.Fixes {
		progress.say("import: %s: %s", out.Session, fix)
	}
	switch {
	case out.Created && out.Added > 0:
		sum.created++
	case out.Added > 0:
		sum.updated++
	default:
		sum.unchanged++
	}
	sum.messages += out.Added
	if out.Added > 0 && !o.DryRun && conv.Folder != "" {
		// -c in that folder continues it; a failure here loses nothing imported.
		if err := recent.Open(home).Note(out.Session, filepath.Clean(conv.Folder), conv.Updated); err != nil {
			progress.say("%s", command.TextIn(o.f.lang(), i18n.Textf("note: %v", err)))
		}
	}
	return nil
}

// importProgress shows "import: i/n files" on a terminal's stderr, at
// most every 100 ms, when there are many files; off a terminal it shows
// nothing.
type importProgress struct {
	s      *ioStreams
	n      int
	last   time.Time
	shown  bool
	active bool
}

func newImportProgress(s *ioStreams, n int) *importProgress {
	return &importProgress{s: s, n: n, active: s.ErrTTY && n >= 20}
}

// show shows that i files of n are done.
func (p *importProgress) show(i int) {
	if !p.active || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	fmt.Fprintf(p.s.Err, "\rimport: %d/%d files", i, p.n)
}

// clear removes the progress line, before other output.
func (p *importProgress) clear() {
	if p.shown {
		fmt.Fprint(p.s.Err, "\r\033[K")
		p.shown = false
	}
}

// say prints one line on stderr below the progress line.
func (p *importProgress) say(format string, args ...any) {
	p.clear()
	fmt.Fprintf(p.s.Err, format+"\n", args...)
}
