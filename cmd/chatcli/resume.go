package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/recent"
	"github.com/chatcli/chatcli/internal/session"
)

// pickMarker is --resume's value when no name follows it: open the
// picker. Parentheses are not allowed in session names, so no session is
// called this.
const pickMarker = "(picker)"

// addResumeFlags adds the root's ways back into a conversation: -c,
// --resume and --session.
func addResumeFlags(cmd *cobra.Command, o *rootOptions) {
	fl := cmd.Flags()
	fl.BoolVarP(&o.Continue, "continue", "c", false, "continue the most recently updated conversation used in this folder (with -p: one shot continuing it)")
	fl.StringVar(&o.Resume, "resume", "", "open the REPL bound to session `NAME` (created at the first turn if missing); with no NAME on a terminal, pick one")
	fl.Lookup("resume").NoOptDefVal = pickMarker
	fl.StringVar(&o.Session, "session", "", "continue session `NAME` (created if missing) and save every turn in it; same as --resume NAME")
	fl.StringVar(&o.Name, "name", "", "start a new conversation saved as session `NAME` from the first turn (refused if NAME exists)")
}

// rootArgs takes the NAME after a bare --resume (pflag binds a value to a
// flag with an optional value only with '='), and refuses other arguments.
func rootArgs(o *rootOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if o.Resume == pickMarker && len(args) > 0 {
			o.Resume, args = args[0], args[1:]
		}
		return noArgs(cmd, args)
	}
}

// checkResumeFlags refuses combinations of -c, --resume and --session.
func (o *rootOptions) checkResumeFlags(cmd *cobra.Command) error {
	given := 0
	for _, f := range []string{"continue", "resume", "session", "name"} {
		if cmd.Flags().Changed(f) {
			given++
		}
	}
	if given > 1 {
		return i18n.Errorf("%w: -c/--continue, --resume, --session and --name each choose the conversation: give one of them", errFlags)
	}
	for flag, v := range map[string]string{"session": o.Session, "name": o.Name} {
		if cmd.Flags().Changed(flag) && v == "" {
			return fmt.Errorf("%w: --%s needs a NAME", errFlags, flag)
		}
	}
	if o.Resume == pickMarker && !(o.f.streams.InTTY && o.f.streams.OutTTY) {
		return i18n.Errorf("%w: --resume needs a NAME when not on a terminal: chatcli --resume NAME (chatcli session list shows them; chatcli -c continues this folder's newest)", errFlags)
	}
	return nil
}

// errNothingChosen ends chatcli quietly when the picker was left without
// choosing a session.
var errNothingChosen = errors.New("no session chosen")

// resumeTarget is the session the flags ask to continue ("" for none) and
// whether a missing one may be created (a name given by --resume or
// --session, not one -c found).
func (o *rootOptions) resumeTarget(ctx context.Context, e *conversation.Engine, home string) (name string, create bool, err error) {
	switch {
	case o.Resume == pickMarker:
		if name, err = o.f.pick(ctx, e, home); err == nil && name == "" {
			err = errNothingChosen
		}
		return name, false, err
	case o.Continue:
		name, err = latestInFolder(e.Store(), recent.Open(home), o.f.folder())
		return name, false, err
	case o.Resume != "":
		return o.Resume, true, nil
	case o.Name != "":
		if err := conversation.ReservedName(o.Name); err != nil {
			return "", false, err
		}
		if e.Store().Exists(o.Name) {
			return "", false, i18n.Errorf("%w: session %q; chatcli --resume %s continues it, or choose another name", session.ErrExists, o.Name, o.Name)
		}
		return o.Name, true, nil
	}
	return o.Session, true, nil
}

// latestInFolder is the most recently updated session (stored updated_at)
// of those last used in folder. Only headers are read. Errors: one
// wrapping session.ErrNotFound when none of them exists; the record's
// read errors.
func latestInFolder(st *session.Store, r *recent.Record, folder string) (string, error) {
	entries, err := r.Read()
	if err != nil {
		return "", err
	}
	best, bestAt := "", time.Time{}
	for _, n := range recent.InFolder(entries, folder) {
		h, err := st.Stat(n)
		if err != nil {
			continue // renamed, deleted or unreadable: not the one to continue
		}
		if best == "" || h.UpdatedAt.After(bestAt) {
			best, bestAt = n, h.UpdatedAt
		}
	}
	if best == "" {
		return "", i18n.Errorf("%w: no conversation was used in %s yet; chatcli session list shows every session and chatcli --resume NAME continues one", session.ErrNotFound, folder)
	}
	return best, nil
}

// resumeInto continues the flags' session in e, reporting to Err as a
// load does (the last messages only on a terminal: a script reads the
// replies alone), in the user's language, its replies written through
// reply when not nil (rendered as a turn's are). It returns the name
// continued, "" when the flags name none.
//
// With -p nothing is reported: the reply alone is the output; and -p
// --session NAME binds to NAME even when chatcli made it (an autosave).
func (o *rootOptions) resumeInto(ctx context.Context, e *conversation.Engine, c config.Config, reply func(io.Writer) io.WriteCloser) (string, error) {
	name, create, err := o.resumeTarget(ctx, e, c.Home)
	if err != nil || name == "" {
		return "", err
	}
	if o.Prompt != "" && o.Session != "" {
		// -p --session NAME binds to NAME whatever made it, as the
		// scripts that use it expect: the turn is then in NAME, also
		// when NAME is an autosave.
		_, _, err := e.Attach(name)
		return name, err
	}
	s := o.f.streams
	env := &command.Env{Engine: e, Out: s.Err, Config: &c, Lang: o.f.lang(), Reply: reply}
	switch {
	case o.Prompt != "":
		env.Out = io.Discard
	case s.OutTTY:
		env.Out = s.Out
	default:
		c.ResumeReplay = 0
	}
	return name, command.Resume(env, name, create)
}

// folder is the working folder sessions are recorded under.
func (f *factory) folder() string { return f.folderOf("") }

// folderOf is dir's recorded form, the working folder's for "".
func (f *factory) folderOf(dir string) string {
	if dir == "" {
		dir = f.workdir
	}
	if dir != "" {
		return recent.Folder(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return recent.Folder(wd)
}

// noteUsed records that session name was used in folder dir ("" for the
// working folder); a failure is a note, never an error (the record only
// serves -c and listings).
func (f *factory) noteUsed(home, name, dir string) {
	folder := f.folderOf(dir)
	if name == "" || folder == "" {
		return
	}
	if err := recent.Open(home).Note(name, folder, time.Now()); err != nil {
		f.note(f.lang().Error(err, nil))
	}
}

// reportSaved tells where a one-shot turn on a continued autosave went
// (name, "" when nothing was saved) and records it for this folder.
func (f *factory) reportSaved(home, name string) {
	if name == "" {
		return
	}
	f.sayErr("Conversation saved as %q; chatcli --resume %s continues it.\n", name, name)
	f.noteUsed(home, name, "")
}

// renameUsed moves a renamed session's folder in the record; a failure is
// a note.
func (f *factory) renameUsed(home, old, new string) {
	if err := recent.Open(home).Rename(old, new); err != nil {
		f.note(f.lang().Error(err, nil))
	}
}

// quietly is nil for errNothingChosen (leaving the picker is no failure),
// else err.
func quietly(err error) error {
	if errors.Is(err, errNothingChosen) {
		return nil
	}
	return err
}

// recordedFolders is the folder each session was last used in, by name;
// a record that cannot be read is a note (in lang) and no folders.
func recordedFolders(s *ioStreams, lang *i18n.Printer, home string) map[string]string {
	entries, err := recent.Open(home).Read()
	if err != nil {
		lang.Fprintf(s.Err, "note: %s\n", command.ErrorLineIn(lang, err))
	}
	out := make(map[string]string, len(entries))
	for n, e := range entries {
		out[n] = e.Folder
	}
	return out
}
