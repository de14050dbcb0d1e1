package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/session"
)

// sessionTreeOptions are the flags and arguments of `session tree`.
type sessionTreeOptions struct {
	f    *factory
	Name string // "" for every family
	JSON bool
}

func newSessionTreeCmd(f *factory) *cobra.Command {
	o := &sessionTreeOptions{f: f}
	cmd := &cobra.Command{
		Use:   "tree [NAME] [--json]",
		Short: "Show which sessions were made from which (forks, saves as new)",
		Long: "Each session made from another (a fork, whole or --at N or --checkpoint K;\n" +
			"a conflict fork; /session save or attach under a new name while bound) is\n" +
			"drawn under the session it came from, with the number of that session's\n" +
			"messages it started from. A parent renamed since is still found. Sessions\n" +
			"made from nothing, or before chatcli recorded lineage, are roots. With NAME,\n" +
			"only the family NAME belongs to.",
		Args: argsBetween(0, 1, i18n.Textf("at most one session NAME")),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Name = args[0]
			}
			return sessionTreeRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print a JSON array of root sessions, each {name, title, messages, updated_at, lineage, parent, parent_gone, error, children: [...]}")
	return cmd
}

// treeEntry is one session of `session tree --json`.
type treeEntry struct {
	Name      string           `json:"name"`
	Title     string           `json:"title"`
	Messages  int              `json:"messages"`
	UpdatedAt time.Time        `json:"updated_at"`
	Lineage   *session.Lineage `json:"lineage,omitempty"`
	// Parent is the parent's name now (renamed since when it differs
	// from Lineage.Parent); ParentGone says the lineage names a session
	// the store no longer holds.
	Parent     string      `json:"parent,omitempty"`
	ParentGone bool        `json:"parent_gone,omitempty"`
	Error      string      `json:"error,omitempty"`
	Children   []treeEntry `json:"children"`
}

func sessionTreeRun(o *sessionTreeOptions) error {
	st, err := o.f.storeFromEnv()
	if err != nil {
		return err
	}
	st.SetListProgress(listProgress(o.f.streams, o.f.lang()))
	list, err := st.List()
	if err != nil {
		return err
	}
	roots := session.Tree(list)
	if o.Name != "" {
		n, err := st.Name(o.Name)
		if err != nil {
			return err
		}
		root := session.Family(roots, n)
		if root == nil {
			return errNoSession(st, n)
		}
		roots = []*session.TreeNode{root}
	}
	if o.JSON {
		out := make([]treeEntry, 0, len(roots))
		for _, r := range roots {
			out = append(out, entryOf(r))
		}
		return writeJSON(o.f, out)
	}
	w, lang := bufio.NewWriter(o.f.streams.Out), o.f.lang()
	if len(roots) == 0 {
		lang.Fprintf(w, "No saved sessions.\n")
	}
	for _, r := range roots {
		writeTreeNode(lang, w, r, "", "")
	}
	return w.Flush()
}

func entryOf(n *session.TreeNode) treeEntry {
	h := n.Header
	e := treeEntry{Name: h.Name, Title: h.Title, Messages: max(h.Messages, 0), UpdatedAt: h.UpdatedAt,
		Lineage: h.Lineage, ParentGone: n.ParentGone, Children: []treeEntry{}}
	if n.Parent != nil {
		e.Parent = n.Parent.Header.Name
	}
	if h.Err != nil {
		e.Error = h.Err.Error()
	}
	for _, c := range n.Children {
		e.Children = append(e.Children, entryOf(c))
	}
	return e
}

// writeTreeNode writes n's line after lead (the branch drawn to it) and
// its children's lines under it, indented by indent, in lang's language.
func writeTreeNode(lang *i18n.Printer, w io.Writer, n *session.TreeNode, lead, indent string) {
	h := n.Header
	parts := []string{render.VisibleLine(h.Name)}
	if how := origin(lang, n); how != "" {
		parts = append(parts, how)
	}
	if h.Err != nil {
		parts = append(parts, lang.Sprintf("unreadable: %s", render.VisibleLine(h.Err.Error())))
	} else {
		parts = append(parts, countOf(lang, h.Messages))
	}
	if h.Title != "" {
		parts = append(parts, fmt.Sprintf("%q", render.VisibleLine(message.Clip(h.Title, 40))))
	}
	fmt.Fprintf(w, "%s%s\n", lead, strings.Join(parts, " · "))
	for i, c := range n.Children {
		if i == len(n.Children)-1 {
			writeTreeNode(lang, w, c, indent+"└─ ", indent+"   ")
		} else {
			writeTreeNode(lang, w, c, indent+"├─ ", indent+"│  ")
		}
	}
}

// origin says how n came out of its parent: "fork at 6", with the
// parent's recorded name when it was renamed since or is gone; "" for a
// session without lineage.
func origin(lang *i18n.Printer, n *session.TreeNode) string {
	l := n.Header.Lineage
	if l == nil {
		return ""
	}
	var s string
	switch l.Kind {
	case session.LineageFork:
		s = lang.Sprintf("fork at %d", l.At)
	case session.LineageConflict:
		s = lang.Sprintf("conflict fork at %d", l.At)
	case session.LineageAttach:
		s = lang.Sprintf("attached as new at %d", l.At)
	case session.LineageSave:
		s = lang.Sprintf("saved as new at %d", l.At)
	default:
		s = lang.Sprintf("%s at %d", render.VisibleLine(l.Kind), l.At)
	}
	switch {
	case n.ParentGone:
		s += lang.Sprintf(" of %q (no longer in the store)", render.VisibleLine(l.Parent))
	case n.Parent != nil && n.Parent.Header.Name != l.Parent:
		s += lang.Sprintf(" of %q (renamed since)", render.VisibleLine(l.Parent))
	}
	return s
}

// countOf is "1 message" or "N messages" in lang's language.
func countOf(lang *i18n.Printer, n int) string {
	return lang.Sprintf("%d messages", max(n, 0))
}
