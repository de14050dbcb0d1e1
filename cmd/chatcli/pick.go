package main

import (
	"context"
	"strings"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/picker"
	"github.com/chatcli/chatcli/internal/recent"
)

// pickPreview is how many of the last messages the preview shows.
const pickPreview = 8

// pickHits is how many content hits a query asks for.
const pickHits = 50

// pick opens the session picker on the terminal over e's store and
// returns the name chosen ("" for none). Rows are the sessions' headers
// (most recently written files first) with the folder each was last used
// in; Enter, Ctrl+R and Ctrl+D act through e (the same verbs as /resume,
// /session rename and /session delete).
func (f *factory) pick(ctx context.Context, e *conversation.Engine, home string) (string, error) {
	st := e.Store()
	folders, err := recent.Open(home).Read()
	if err != nil {
		f.note(f.lang().Sprintf("%s; folders are not shown", f.lang().Error(err, nil)))
	}
	here := f.folder()
	src := picker.Source{
		Folder:   here,
		Lang:     f.lang(),
		AllFirst: len(recent.InFolder(folders, here)) == 0,
		Rows:     picker.StoreRows(st, folders),
		Preview: func(name string) (string, error) {
			s, err := st.Load(name)
			if err != nil {
				return "", err
			}
			var b strings.Builder
			command.Replay(f.lang(), &b, s.History, pickPreview, nil)
			return b.String(), nil
		},
		Search: func(q string) ([]picker.Hit, error) {
			hits, _, err := e.SearchSessions(q, pickHits)
			var out []picker.Hit
			seen := map[string]bool{}
			for _, h := range hits {
				if !seen[h.Doc.Source] && !strings.HasPrefix(h.Doc.Source, "journal:") {
					seen[h.Doc.Source] = true
					out = append(out, picker.Hit{Name: h.Doc.Source, Snippet: h.Snippet})
				}
			}
			return out, err
		},
		Rename: func(old, new string) error {
			if err := e.Rename(old, new); err != nil {
				return err
			}
			f.renameUsed(home, old, new)
			return nil
		},
		Delete: func(name string) error { _, err := e.Delete(name); return err },
	}
	return picker.Run(ctx, f.streams.In, f.streams.Out, src)
}
