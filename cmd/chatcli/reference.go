package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/bootstrap"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/reference"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/tools"
)

// commandOutputBytes caps the output @command inlines (64 KiB).
const commandOutputBytes = 64 << 10

// sessionHits is how many hits @session quotes, and quoteChars how much
// of each message.
const (
	sessionHits = 5
	quoteChars  = 600
)

// refusal is the error of an @command the person did not approve: it is
// reference.ErrRefused and reads "refused: WHY", saying "refused" once.
type refusal struct{ err error }

func (r refusal) Error() string {
	if s := r.err.Error(); strings.HasPrefix(s, "refused") {
		return s
	}
	return "refused: " + r.err.Error()
}

// Said is the same text as an i18n error, which Printer.Error says in
// the reader's language.
func (r refusal) Said() error {
	if strings.HasPrefix(r.err.Error(), "refused") {
		return r.err
	}
	return i18n.Errorf("refused: %v", r.err)
}

func (r refusal) Is(target error) bool { return target == reference.ErrRefused }

func (r refusal) Unwrap() error { return r.err }

// expander expands the @ references of the prompts of an engine working
// in dir ("" for the working directory) over store st.
//
// engine returns the engine once built (for @recall).
func (f *factory) expander(c config.Config, dir string, st *session.Store, notify func(string), engine func() *conversation.Engine) func(context.Context, string) (string, []message.Image, error) {
	if dir == "" {
		dir = f.workdir
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	x := &reference.Expander{Dir: dir, Environ: os.Environ, HistoryFile: f.shellHistory(), Notify: notify}
	x.Run = func(ctx context.Context, cmdline string) (string, error) {
		if !c.Agent.AutoExec { // agent mode's rule: ask on a terminal, else refuse
			p, err := f.permit.Ask(ctx, "run `"+cmdline+"` for @command")
			if err == nil && p == repl.PermissionNo {
				err = i18n.Errorf("not allowed")
			}
			if err != nil {
				return "", refusal{err}
			}
		}
		var out bytes.Buffer
		err := tools.Execute(ctx, dir, cmdline, &out)
		text, cut := bootstrap.Cut(out.String(), commandOutputBytes)
		if cut {
			text += fmt.Sprintf("\n[output cut to its first %d bytes]", len(text))
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return text + fmt.Sprintf("\n[exit status %d]", exit.ExitCode()), nil
		}
		return text, err
	}
	x.Recall = func(key string) (string, error) {
		msgs, err := engine().Recall(key)
		var b strings.Builder
		for _, m := range msgs {
			fmt.Fprintf(&b, "%s: %s\n", m.Role, m.Content)
		}
		return b.String(), err
	}
	x.Search = func(query string) ([][2]string, error) {
		hits, _, err := conversation.SearchAll(st, c.TranscriptsDir(), query, sessionHits, nil)
		out := make([][2]string, len(hits))
		for i, h := range hits {
			out[i] = [2]string{fmt.Sprintf("%s #%d %s", h.Doc.Source, h.Doc.Position, h.Doc.Role), message.Clip(h.Snippet, quoteChars)}
		}
		return out, err
	}
	return x.Expand
}

// shellHistory is the shell's history file for @history: HISTFILE, else
// ~/.bash_history or ~/.zsh_history, whichever exists; "" when none.
func (f *factory) shellHistory() string {
	if h := f.getenv("HISTFILE"); h != "" {
		return h
	}
	home := f.getenv("HOME")
	for _, n := range []string{".bash_history", ".zsh_history"} {
		if p := filepath.Join(home, n); home != "" && fileExists(p) {
			return p
		}
	}
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
