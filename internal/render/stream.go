package render

import (
	"io"
	"strings"
	"sync"
)

// Stream renders a reply that arrives in pieces block by block: each
// Markdown block is written, rendered, as soon as the stream completes it
// (a blank line outside a fenced code block, or the fence that closes
// one); Close writes the rest. Blocks are separated by a blank line and
// the last ends with a line feed. It is safe for concurrent use.
type Stream struct {
	md  *Markdown
	out io.Writer

	mu      sync.Mutex
	pending string // received, not yet written
	wrote   bool   // a block was written
}

// Stream returns a Stream writing to out.
func (m *Markdown) Stream(out io.Writer) *Stream { return &Stream{md: m, out: out} }

// Write takes the next piece of the reply and writes the blocks it
// completes.
func (s *Stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending += string(p)
	if end := completeBlocks(s.pending); end > 0 {
		if err := s.emit(s.pending[:end]); err != nil {
			return 0, err
		}
		s.pending = s.pending[end:]
	}
	return len(p), nil
}

// Flush writes what was received so far as a block of its own, so other
// output (a tool call's line, a question) comes after it.
func (s *Stream) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rest := s.pending
	s.pending = ""
	return s.emit(rest)
}

// Close writes the rest of the reply.
func (s *Stream) Close() error { return s.Flush() }

// emit renders src and writes it, after a blank line when a block came
// before; blank src writes nothing.
func (s *Stream) emit(src string) error {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	out := s.md.Render(src) + "\n"
	if s.wrote {
		out = "\n" + out
	}
	s.wrote = true
	_, err := io.WriteString(s.out, out)
	return err
}

// completeBlocks returns the length of the longest prefix of src made of
// whole blocks: it ends after a blank line outside a fenced code block or
// after the line closing a fence (0 when there is none).
func completeBlocks(src string) int {
	end, pos := 0, 0
	fence := "" // the opening fence's characters while inside one
	for {
		nl := strings.IndexByte(src[pos:], '\n')
		if nl < 0 {
			return end
		}
		line := src[pos : pos+nl]
		pos += nl + 1
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if len(line)-len(trimmed) <= 3 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence, end = "", pos
			}
		case len(line)-len(trimmed) <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			c := trimmed[:1]
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, c))]
		case strings.TrimSpace(line) == "":
			end = pos
		}
	}
}
