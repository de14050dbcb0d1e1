package main

import (
	"bufio"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/session"
)

// screenRowsDefault is one screen when the terminal's height is unknown.
const screenRowsDefault = 24

// writeTable prints `session list` as a table, buffered. On a terminal
// ages are relative, the sessions are this folder's when it has any
// (unless --all, which adds a FOLDER column), and one screen of them is
// shown unless -n says otherwise; a last line says what was left out. An
// empty store is named by its folder dir.
func (o *sessionListOptions) writeTable(list []session.Header, folders map[string]string, dir string) error {
	s := o.f.streams
	w := bufio.NewWriter(s.Out)
	lang := o.f.lang()
	total, format, scope := len(list), command.ListFormat{Lang: lang}, ""
	if s.OutTTY {
		format.Now, format.Width = time.Now(), o.f.tableWidth()
		here := o.f.folder()
		if o.All {
			format.Folders = folders
		} else if in := inFolder(list, folders, here); len(in) > 0 {
			list, scope = in, here
		}
	}
	limit := o.Limit
	if limit == -1 {
		limit = 0
		if s.OutTTY {
			limit = max(5, screenRows(s)-4)
		}
	}
	shown := list
	if limit > 0 && len(list) > limit {
		shown = list[:limit]
	}
	o.warnDamaged(shown)
	if len(shown) == 0 {
		lang.Fprintf(w, "No saved sessions in %s. A conversation is kept as an autosave when the REPL exits; chatcli --name NAME saves one as NAME.\n", dir)
		return w.Flush()
	}
	command.WriteListAs(w, shown, "", format)
	switch {
	case scope != "" && len(shown) < len(list):
		lang.Fprintf(w, "(%d of the %d sessions used in %s, %d in all; -n 0 lists them all, --all every folder's)\n", len(shown), len(list), scope, total)
	case scope != "":
		lang.Fprintf(w, "(the sessions used in %s, %d of %d; --all lists every folder's)\n", scope, len(list), total)
	case len(shown) < len(list):
		lang.Fprintf(w, "(%d of %d sessions; -n 0 lists them all)\n", len(shown), len(list))
	}
	return w.Flush()
}

// inFolder keeps the headers of the sessions last used in folder.
func inFolder(list []session.Header, folders map[string]string, folder string) []session.Header {
	var out []session.Header
	for _, h := range list {
		if folders[h.Name] == folder {
			out = append(out, h)
		}
	}
	return out
}

// screenRows is the terminal's height in rows.
func screenRows(s *ioStreams) int {
	if f, ok := s.Out.(*os.File); ok {
		if _, h, err := term.GetSize(int(f.Fd())); err == nil && h > 0 {
			return h
		}
	}
	return screenRowsDefault
}
