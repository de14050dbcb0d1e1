package contexts

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/bootstrap"
	"github.com/chatcli/chatcli/internal/memory"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/search"
)

// RetrievalChunks is how many chunks an attachment in retrieval mode
// sends: the best ranked for the latest prompt.
const RetrievalChunks = 8

// Supplier makes the system content of every request, in this order: the
// bootstrap files, the memory notes, then each attached context by
// priority (see doc.go). Its Messages is a conversation.Supplement. Each
// problem (an unreadable file, a missing context) is told to Notify once
// per process. It is safe for concurrent use.
type Supplier struct {
	Bootstrap *bootstrap.Loader // nil: none
	Memory    *memory.Store     // nil: none
	Contexts  *Store            // nil: attachments are not sent
	// MemoryBudgetBytes is the size of the memory sent (memory.Budget
	// when 0).
	MemoryBudgetBytes int
	Notify            func(string)

	mu     sync.Mutex
	warned map[string]bool
	cache  map[string]*loaded
}

// loaded is a context as read, with its retrieval index once built.
type loaded struct {
	size int64
	mod  time.Time
	ctx  *Context
	ix   *search.Index
}

// Messages returns the system messages for a request whose conversation
// has the attachments member att and whose latest prompt is prompt.
func (s *Supplier) Messages(att json.RawMessage, prompt string) []message.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []message.Message
	add := func(text string) {
		if text != "" {
			out = append(out, message.Message{Role: message.RoleSystem, Content: text})
		}
	}
	if s.Bootstrap != nil {
		files, warns := s.Bootstrap.Load()
		for _, w := range warns {
			s.warn(w)
		}
		add(bootstrap.Text(files))
	}
	if s.Memory != nil {
		notes, err := s.Memory.List()
		if err != nil {
			s.warn(fmt.Sprintf("memory not sent: %v", err))
		}
		budget := s.MemoryBudgetBytes
		if budget <= 0 {
			budget = memory.Budget
		}
		add(memory.Text(notes, budget))
	}
	if s.Contexts == nil {
		return out
	}
	list, err := ParseAttachments(att)
	if err != nil {
		s.warn(err.Error())
	}
	for _, a := range ByPriority(list) {
		l, err := s.load(a.ContextID)
		if err != nil {
			s.warn(skipped(a.ContextID, err))
			continue
		}
		add(render(l, a, prompt))
	}
	return out
}

// Check tells Notify, once per process like Messages, about each record
// of att whose context cannot be read, so a load or resume says at once
// which attached contexts will be skipped.
func (s *Supplier) Check(att json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := ParseAttachments(att)
	if err != nil {
		s.warn(err.Error())
	}
	for _, a := range list {
		if _, err := s.load(a.ContextID); err != nil {
			s.warn(skipped(a.ContextID, err))
		}
	}
}

// skipped is the notice about an attached context that cannot be sent.
func skipped(id string, err error) string {
	return fmt.Sprintf("attached context %q skipped: %v (/context detach %s forgets it)", id, err, id)
}

// warn tells Notify about text once.
func (s *Supplier) warn(text string) {
	if s.warned == nil {
		s.warned = map[string]bool{}
	}
	if !s.warned[text] && s.Notify != nil {
		s.Notify(text)
	}
	s.warned[text] = true
}

// load reads context name, or returns it as last read when its file is
// unchanged.
func (s *Supplier) load(name string) (*loaded, error) {
	fi, err := os.Stat(filepath.Join(s.Contexts.Dir(), name+".json"))
	if err == nil {
		if l, ok := s.cache[name]; ok && l.size == fi.Size() && l.mod.Equal(fi.ModTime()) {
			return l, nil
		}
	}
	c, err := s.Contexts.Load(name)
	if err != nil {
		delete(s.cache, name)
		return nil, err
	}
	l := &loaded{ctx: c}
	if fi != nil {
		l.size, l.mod = fi.Size(), fi.ModTime()
	}
	if s.cache == nil {
		s.cache = map[string]*loaded{}
	}
	s.cache[name] = l
	return l, nil
}

// render is the system content of one attachment.
func render(l *loaded, a Attachment, prompt string) string {
	c := l.ctx
	picked := a.SelectedChunks
	if len(picked) == 0 {
		picked = make([]int, len(c.Chunks))
		for i := range picked {
			picked[i] = i + 1
		}
	}
	var b strings.Builder
	if a.Mode != ModeRetrieval {
		b.Grow(c.Bytes() + 80*len(picked))
	}
	if a.Mode == ModeRetrieval {
		picked = l.best(picked, prompt)
		fmt.Fprintf(&b, "Attached context %q (retrieval: the %d of its %d chunks most relevant to the latest prompt):\n", c.Name, len(picked), len(c.Chunks))
	} else {
		fmt.Fprintf(&b, "Attached context %q (%d of its %d chunks, from %s):\n", c.Name, len(picked), len(c.Chunks), strings.Join(c.Sources, ", "))
	}
	for _, n := range picked {
		if n < 1 || n > len(c.Chunks) {
			continue
		}
		ch := c.Chunks[n-1]
		fmt.Fprintf(&b, "\n--- %s (chunk %d, from line %d) ---\n%s", ch.File, n, ch.Line, ch.Text)
		if !strings.HasSuffix(ch.Text, "\n") {
			b.WriteByte('\n')
		}
	}
	if len(picked) == 0 {
		b.WriteString("\n(no chunk matches the latest prompt)\n")
	}
	return b.String()
}

// best ranks the chunks numbered in among with BM25 against prompt and
// returns the RetrievalChunks best, in chunk order.
func (l *loaded) best(among []int, prompt string) []int {
	if l.ix == nil {
		l.ix = search.NewIndex()
		for i, ch := range l.ctx.Chunks {
			l.ix.Add(search.Doc{Source: l.ctx.Name, Position: i + 1, Role: "context", Text: ch.File + "\n" + ch.Text})
		}
	}
	allowed := map[int]bool{}
	for _, n := range among {
		allowed[n] = true
	}
	limit := 0 // every hit, to filter by the selection
	if len(among) == len(l.ctx.Chunks) {
		limit = RetrievalChunks
	}
	hits, err := l.ix.Search(prompt, limit)
	if err != nil {
		return nil
	}
	var out []int
	for _, h := range hits {
		if allowed[h.Doc.Position] {
			out = append(out, h.Doc.Position)
			if len(out) == RetrievalChunks {
				break
			}
		}
	}
	slices.Sort(out)
	return out
}
