package session

import (
	"cmp"
	"slices"
)

// TreeNode is one session in a family tree of sessions (Tree).
type TreeNode struct {
	Header Header
	// Parent is the node of the session Header.Lineage names, nil for a
	// root: a session with no lineage (made from nothing, or before
	// lineage was recorded), or whose parent is gone (ParentGone).
	Parent *TreeNode
	// ParentGone is set on a root whose lineage names a session the store
	// no longer holds under that name or journal.
	ParentGone bool
	Children   []*TreeNode
}

// Tree arranges sessions (List's headers) by lineage: the roots, newest
// first, each with its forks under it in the order they were made. A
// lineage's parent is found by its journal (ParentTranscript), which a
// rename keeps, preferring the session of the recorded name among those
// sharing it; else by the recorded name, unless that session names
// another journal (the name was given to another conversation since). Lineages that would make a
// cycle (files edited by hand) are cut: the first session of the cycle by
// name becomes a root. Every header is in the tree exactly once.
func Tree(list []Header) []*TreeNode {
	nodes := make([]*TreeNode, len(list))
	byName := make(map[string]*TreeNode, len(list))
	byJournal := make(map[string][]*TreeNode)
	for i := range list {
		n := &TreeNode{Header: list[i]}
		nodes[i], byName[n.Header.Name] = n, n
		if id := n.Header.TranscriptID; id != "" {
			byJournal[id] = append(byJournal[id], n)
		}
	}
	for _, n := range nodes {
		l := n.Header.Lineage
		if l == nil {
			continue
		}
		n.Parent = findParent(n, l, byName, byJournal)
		n.ParentGone = n.Parent == nil
	}
	cutCycles(nodes)
	var roots []*TreeNode
	for _, n := range nodes {
		if n.Parent == nil {
			roots = append(roots, n)
		} else {
			n.Parent.Children = append(n.Parent.Children, n)
		}
	}
	for _, n := range nodes {
		slices.SortFunc(n.Children, func(a, b *TreeNode) int {
			return cmp.Or(a.Header.Lineage.CreatedAt.Compare(b.Header.Lineage.CreatedAt), cmp.Compare(a.Header.Name, b.Header.Name))
		})
	}
	slices.SortFunc(roots, func(a, b *TreeNode) int {
		return cmp.Or(b.Header.UpdatedAt.Compare(a.Header.UpdatedAt), cmp.Compare(a.Header.Name, b.Header.Name))
	})
	return roots
}

// findParent is the node lineage l of n names, nil when none is left.
func findParent(n *TreeNode, l *Lineage, byName map[string]*TreeNode, byJournal map[string][]*TreeNode) *TreeNode {
	named := byName[l.Parent]
	if named == n {
		named = nil
	}
	if l.ParentTranscript == "" {
		return named
	}
	var same []*TreeNode
	for _, c := range byJournal[l.ParentTranscript] {
		if c != n {
			same = append(same, c)
		}
	}
	switch {
	case named != nil && slices.Contains(same, named):
		return named
	case len(same) == 1: // renamed since
		return same[0]
	case named != nil && named.Header.TranscriptID != "":
		return nil // the name now holds another conversation
	}
	return named // a parent rewritten without its journal's id (by ChatCLI)
}

// cutCycles makes roots of the sessions whose parents lead back to them,
// one per cycle: the first by name.
func cutCycles(nodes []*TreeNode) {
	state := make(map[*TreeNode]int, len(nodes)) // 0 unseen, 1 on the current path, 2 done
	for _, start := range nodes {
		var path []*TreeNode
		n := start
		for n != nil && state[n] == 0 {
			state[n] = 1
			path = append(path, n)
			n = n.Parent
		}
		if n != nil && state[n] == 1 { // back on this path: a cycle from n
			cycle := path[slices.Index(path, n):]
			first := slices.MinFunc(cycle, func(a, b *TreeNode) int { return cmp.Compare(a.Header.Name, b.Header.Name) })
			first.Parent = nil
		}
		for _, p := range path {
			state[p] = 2
		}
	}
}

// Family returns the root of the tree node name belongs to, nil when no
// node of roots is name.
func Family(roots []*TreeNode, name string) *TreeNode {
	var has func(*TreeNode) bool
	has = func(n *TreeNode) bool {
		if n.Header.Name == name {
			return true
		}
		return slices.ContainsFunc(n.Children, has)
	}
	for _, r := range roots {
		if has(r) {
			return r
		}
	}
	return nil
}
