package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
)

const verifyLong = `Read every session file (sessions/*.json), every trashed session (trash/)
and every journal (transcripts/*.jsonl), opening sealed files with
CHATCLI_ENCRYPTION_KEY, and report what is damaged: session files that cannot
be read (with the reason, naming the file) and the journal lines a read skips
(torn by a crash, NUL bytes, not a record, a checksum that does not match, a
sealed line that does not open), with their file:line. Without --repair
nothing is changed.

--repair sets each damaged journal aside, byte for byte, as
transcripts/<id>.jsonl.broken (then .broken-1, -2, …: an earlier copy is never
replaced) and rewrites it with the records that read back, in order, sealed
lines still sealed, in one atomic replacement; reading it then gives no
warnings. The session files naming a repaired journal, trashed ones too, then
name the journal position they cover (journal_pos) where the rewritten
journal has it, or none when the repair left that record out; nothing else of
a session file is changed: a damaged one is reported and left as it is (move
it aside; chatcli session restore NAME brings back a trashed copy if there is
one).

Exit status: 0 when everything is sound (with --repair: once every damaged
journal was rewritten); 6 when damage is found that was not repaired; 4 when
nothing is damaged but a file could not be checked (sealed and
CHATCLI_ENCRYPTION_KEY unset, sealed under another key, or written by a newer
chatcli). The report goes to stdout; progress, for stores of many files, to
stderr.`

// errDamaged ends a `storage verify` run that found damage it did not
// repair (exit status exitDamaged).
var errDamaged = i18n.Errorf("storage verify: damage found")

// Verdicts of a verifyProblem.
const (
	verdictDamaged   = "damaged"   // the file, or lines of it, do not read back
	verdictRepaired  = "repaired"  // a damaged journal --repair rewrote clean
	verdictUnchecked = "unchecked" // it could not be read with this key or by this version
)

// verifyFirstLines is how many damaged lines of one journal are listed.
const verifyFirstLines = 5

// verifyProgressFiles is the store size (files) from which progress is
// reported on stderr, every tenth of the files.
const verifyProgressFiles = 500

type storageVerifyOptions struct {
	f      *factory
	JSON   bool
	Repair bool
}

// verifySummary is the result of `storage verify` (--json prints it).
type verifySummary struct {
	// Sound: nothing damaged is left and every file was checked.
	Sound bool `json:"sound"`
	// Files checked, per kind.
	Sessions int `json:"sessions"`
	Trash    int `json:"trash"`
	Journals int `json:"journals"`
	// Damaged counts the files left damaged, Repaired the journals
	// rewritten clean, Unchecked the files that could not be checked.
	Damaged   int             `json:"damaged"`
	Repaired  int             `json:"repaired"`
	Unchecked int             `json:"unchecked"`
	Problems  []verifyProblem `json:"problems"`
	// ChatCLIEnvelopes counts the session and trash files in ChatCLI's
	// envelope (CHATCLI_ENC_v1), checked with ChatCLI's key.
	ChatCLIEnvelopes int `json:"chatcli_envelopes"`
}

// verifyProblem is one file that is not sound.
type verifyProblem struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`    // session, trash or journal
	Verdict string `json:"verdict"` // damaged, repaired or unchecked
	Error   string `json:"error,omitempty"`
	// For a journal: the lines read (a torn last line included), how many
	// were damaged, the first few of them; with --repair, the copy of the
	// journal as it was and the records it holds now.
	Lines        int          `json:"lines,omitempty"`
	DamagedLines int          `json:"damaged_lines,omitempty"`
	FirstDamaged []verifyLine `json:"first_damaged,omitempty"`
	Broken       string       `json:"broken,omitempty"`
	Records      int          `json:"records,omitempty"`
	// Placed counts the session files naming a repaired journal whose
	// journal_pos was placed in it again (session.Store.PlaceJournal).
	Placed int `json:"placed,omitempty"`
	// LeftAsIs: --repair did not change the file (a session file, or a
	// journal it could not rewrite).
	LeftAsIs bool `json:"left_as_is,omitempty"`

	err  error    // what Error says, for the exit status
	form sealForm // the form the file is sealed in, whose key it needs
	// notRepaired: Error is err led by "not repaired: "; wrongKey: it ends
	// in wrongKeyNote (errorIn says them in another language).
	notRepaired, wrongKey bool
}

type verifyLine struct {
	Line   int    `json:"line"`   // 1-based
	Reason string `json:"reason"` // English, as the journal reader says it

	said i18n.Text // Reason, said in the reader's language by reasonIn
}

// damagedLine is the line of the report of w, a damaged journal line.
func damagedLine(w journal.Warning) verifyLine {
	return verifyLine{Line: w.Line, Reason: w.Reason.String(), said: w.Reason}
}

func newStorageVerifyCmd(f *factory, runF func(*storageVerifyOptions) error) *cobra.Command {
	o := &storageVerifyOptions{f: f}
	cmd := &cobra.Command{
		Use:   "verify [--repair]",
		Short: "Check every session and journal; --repair rewrites damaged ones",
		Long:  verifyLong,
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return storageVerifyRun(o)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&o.Repair, "repair", false, "set each damaged journal aside as <id>.jsonl.broken and rewrite it clean; session files change only in the journal position they name")
	fl.BoolVar(&o.JSON, "json", false, "print {sound, sessions, trash, journals, damaged, repaired, unchecked, problems: [{path, kind, verdict, error, lines, damaged_lines, first_damaged: [{line, reason}], broken, records, left_as_is}]}")
	return cmd
}

func storageVerifyRun(o *storageVerifyOptions) error {
	c, st, err := o.f.configStore()
	if err != nil {
		return err
	}
	files, err := storeFiles(st, filepath.Join(c.Home, "transcripts")) // journals too when the journal is now off
	if err != nil {
		return fmt.Errorf("storage verify: %w", err)
	}
	key := c.EncryptionKey
	var sum verifySummary
	var opens [2]bool // the key opened a sealed file or line of the store, by sealKind's form
	for i, f := range files {
		var p *verifyProblem
		var opened bool
		form := formChatcli
		if f.kind == fileJournal {
			sum.Journals++
			p, opened = verifyJournal(f.path, key, o.Repair)
		} else {
			if f.kind == fileSession {
				sum.Sessions++
			} else {
				sum.Trash++
			}
			var sealed bool
			p, sealed, form = verifySession(st, f)
			opened = sealed && p == nil
			if form == formChatCLI {
				sum.ChatCLIEnvelopes++
			}
		}
		opens[form] = opens[form] || opened
		if p != nil {
			p.form = form
			sum.Problems = append(sum.Problems, *p)
		}
		verifyProgress(o.f.lang(), o.f.streams.Err, i+1, len(files))
	}
	var unchecked []error
	for i := range sum.Problems {
		p := &sum.Problems[i]
		if p.Verdict == verdictRepaired {
			placeJournal(st, p)
		}
		if p.Verdict == verdictUnchecked && errors.Is(p.err, seal.ErrWrongKey) && opens[p.form] {
			// The journal reader's rule, store-wide: a file the key does not
			// open while it opens others of its form is damaged (or sealed
			// under another key). ChatCLI's envelope has a key of its own.
			p.Verdict = verdictDamaged
			p.Error += wrongKeyNote(nil, p.form)
			p.wrongKey = true
		}
		p.LeftAsIs = o.Repair && p.Verdict == verdictDamaged
		switch p.Verdict {
		case verdictDamaged:
			sum.Damaged++
		case verdictRepaired:
			sum.Repaired++
		case verdictUnchecked:
			sum.Unchecked++
			unchecked = append(unchecked, p.err)
		}
	}
	sum.Sound = sum.Damaged == 0 && sum.Unchecked == 0
	if sum.Problems == nil {
		sum.Problems = []verifyProblem{}
	}
	if o.JSON {
		if err := writeJSON(o.f, sum); err != nil {
			return err
		}
	} else {
		out, flush := command.WrapTo(o.f.streams.Out, o.f.tableWidth())
		writeVerifyReport(o.f.lang(), out, sum, o.Repair)
		flush()
	}
	switch {
	case sum.Damaged > 0:
		return i18n.Errorf("%w: %d damaged files, each listed above", errDamaged, sum.Damaged)
	case len(unchecked) > 0:
		return &verifyError{unchecked}
	}
	return nil
}

// verifyJournal checks the journal at path and, with repair, rewrites it
// clean when it is damaged. It returns the problem (nil when the journal
// is sound) and whether the key opened sealed lines of it.
func verifyJournal(path string, key seal.Key, repair bool) (*verifyProblem, bool) {
	res, err := journal.Verify(path, key)
	if err != nil {
		return &verifyProblem{Path: path, Kind: fileJournal, Verdict: verdictUnchecked, Error: namingFile(err, path), err: err}, false
	}
	opened := res.Sealed > 0
	if len(res.Warnings) == 0 {
		return nil, opened
	}
	p := &verifyProblem{Path: path, Kind: fileJournal, Verdict: verdictDamaged, Lines: res.Lines, DamagedLines: len(res.Warnings)}
	if last := res.Warnings[len(res.Warnings)-1].Line; last > p.Lines {
		p.Lines = last // a torn last line, which has no "\n"
	}
	for _, w := range res.Warnings[:min(len(res.Warnings), verifyFirstLines)] {
		p.FirstDamaged = append(p.FirstDamaged, damagedLine(w))
	}
	if !repair {
		return p, opened
	}
	rep, err := journal.Repair(path, key)
	p.Broken = rep.Broken
	switch {
	case err != nil:
		p.Error, p.err, p.notRepaired = "not repaired: "+err.Error(), err, true
	case rep.Broken == "":
		return nil, opened // sound by now: the damage was mended meanwhile
	default:
		p.Verdict, p.Records = verdictRepaired, rep.Records
		if len(rep.Damaged) != p.DamagedLines { // lines appended or damaged since Verify
			p.DamagedLines, p.FirstDamaged = len(rep.Damaged), nil
			for _, w := range rep.Damaged[:min(len(rep.Damaged), verifyFirstLines)] {
				p.FirstDamaged = append(p.FirstDamaged, damagedLine(w))
			}
		}
	}
	return p, opened
}

// placeJournal gives the session files naming p's repaired journal the
// position it has now; a file it could not rewrite is named in p.Error
// (readers then find the journal's records from its top).
func placeJournal(st *session.Store, p *verifyProblem) {
	id := strings.TrimSuffix(filepath.Base(p.Path), ".jsonl")
	n, err := st.PlaceJournal(filepath.Dir(p.Path), id)
	p.Placed = n
	if err != nil {
		p.Error = "journal_pos not placed again: " + err.Error()
	}
}

// namingFile is err's text, led by path when the text does not name it.
func namingFile(err error, path string) string {
	if s := err.Error(); strings.Contains(s, path) {
		return s
	}
	return path + ": " + err.Error()
}

// verifyProgress reports on w in lang, for stores of many files, each
// tenth of the files checked.
func verifyProgress(lang *i18n.Printer, w io.Writer, done, total int) {
	if total < verifyProgressFiles || done == total {
		return
	}
	if step := total / 10; done%step == 0 {
		lang.Fprintf(w, "storage verify: %d of %d files checked\n", done, total)
	}
}

// writeVerifyReport prints sum for a person, in lang (nil: English). The
// JSON report's texts (p.Error, a line's reason) stay English; in
// another language the report says them there (errorIn, reasonIn).
func writeVerifyReport(lang *i18n.Printer, w io.Writer, sum verifySummary, repair bool) {
	if sum.ChatCLIEnvelopes > 0 {
		lang.Fprintf(w, "Checked %d session files, %d trashed sessions and %d journals; %d of the session files in ChatCLI's envelope, with ChatCLI's key.\n",
			sum.Sessions, sum.Trash, sum.Journals, sum.ChatCLIEnvelopes)
	} else {
		lang.Fprintf(w, "Checked %d session files, %d trashed sessions and %d journals.\n", sum.Sessions, sum.Trash, sum.Journals)
	}
	for _, p := range sum.Problems {
		switch {
		case p.Verdict == verdictDamaged && p.DamagedLines == 0:
			lang.Fprintf(w, "damaged: %s", p.errorIn(lang))
		case p.Verdict == verdictUnchecked:
			lang.Fprintf(w, "not checked: %s", p.errorIn(lang))
		default:
			lang.Fprintf(w, "damaged: %s: %d damaged lines of %d", p.Path, p.DamagedLines, p.Lines)
			for _, l := range p.FirstDamaged {
				fmt.Fprintf(w, "\n  %s:%d: %s", p.Path, l.Line, l.reasonIn(lang))
			}
			if more := p.DamagedLines - len(p.FirstDamaged); more > 0 {
				lang.Fprintf(w, "\n  … and %d more", more)
			}
			switch {
			case p.Verdict == verdictRepaired:
				lang.Fprintf(w, "\n  repaired: the journal as it was is %s; it now holds its %d readable records", p.Broken, p.Records)
				if p.Placed > 0 {
					lang.Fprintf(w, "; %d session files name its new offsets", p.Placed)
				}
				if p.Error != "" {
					fmt.Fprintf(w, "\n  %s", p.Error)
				}
			case p.Error != "":
				fmt.Fprintf(w, "\n  %s", p.errorIn(lang))
			}
		}
		if p.LeftAsIs {
			lang.Fprintf(w, "; the file was left as it is")
		}
		fmt.Fprintln(w)
	}
	switch {
	case sum.Sound && sum.Repaired > 0:
		lang.Fprintf(w, "%d journals repaired; everything is sound now.\n", sum.Repaired)
	case sum.Sound:
		lang.Fprintf(w, "Everything is sound.\n")
	default:
		lang.Fprintf(w, "%d damaged, %d repaired, %d not checked.\n", sum.Damaged, sum.Repaired, sum.Unchecked)
		if !repair && hasDamagedJournal(sum) {
			lang.Fprintf(w, "`chatcli storage verify --repair` sets each damaged journal aside as <id>.jsonl.broken and rewrites it clean.\n")
		}
	}
}

func hasDamagedJournal(sum verifySummary) bool {
	for _, p := range sum.Problems {
		if p.Kind == fileJournal && p.Verdict == verdictDamaged && p.DamagedLines > 0 {
			return true
		}
	}
	return false
}

// verifyError ends a verify run that damaged nothing but could not check
// some files: its text counts them (each was listed); it wraps each
// failure, so the exit status keeps their class (exitData for a missing or
// wrong key, a newer format).
type verifyError struct{ errs []error }

func (e *verifyError) Error() string { return e.Said().Error() }

func (e *verifyError) Unwrap() []error { return e.errs }

// Said implements i18n.Sayer.
func (e *verifyError) Said() error {
	return i18n.Errorf("storage verify: %d files could not be checked, each listed above", len(e.errs))
}
