package tools

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits of read_file.
const (
	defaultReadLines = 2000
	// sniffBytes is how much of a file is checked for a NUL byte to call
	// it binary (the heuristic of git and grep).
	sniffBytes = 8000
)

type readArgs struct {
	Path   string `json:"path"`
	Offset *int   `json:"offset"`
	Limit  *int   `json:"limit"`
}

func (b *Box) readFile(ctx context.Context, raw []byte) (string, error) {
	var a readArgs
	if err := decode("read_file", raw, &a); err != nil {
		return "", err
	}
	if a.Path == "" {
		return "", errors.New("read_file needs a path")
	}
	first, limit := 1, defaultReadLines
	if a.Offset != nil {
		if first = *a.Offset; first < 1 {
			return "", fmt.Errorf("offset %d: lines are numbered from 1", first)
		}
	}
	if a.Limit != nil {
		if limit = *a.Limit; limit < 1 {
			return "", fmt.Errorf("limit %d: must be at least 1", limit)
		}
	}
	t, err := b.resolve(a.Path)
	if err != nil {
		return "", err
	}
	f, err := b.openRegular(t, "read_file")
	if err != nil {
		return "", err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if head, _ := r.Peek(sniffBytes); bytes.IndexByte(head, 0) >= 0 {
		return "", fmt.Errorf("%s is a binary file; read_file shows text only", t.rel)
	}
	out := &capture{capBytes: b.capBytes}
	last := first + limit - 1
	line, partial := 1, false // line: number of the line the next byte belongs to
	for i := 0; ; i++ {
		if i%256 == 0 && ctx.Err() != nil {
			return "", ctx.Err()
		}
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			if line >= first && line <= last {
				out.Write(chunk)
			}
			partial = chunk[len(chunk)-1] != '\n'
			if !partial {
				line++
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("read %s: %w", t.rel, err)
		}
	}
	total := line - 1
	if partial {
		total++
	}
	switch {
	case total == 0:
		return fmt.Sprintf("[%s is empty]", t.rel), nil
	case first > total:
		return "", fmt.Errorf("offset %d is past the end of %s, which has %d lines", first, t.rel, total)
	case first == 1 && last >= total:
		return out.String(), nil
	}
	shown := min(last, total)
	text := out.String()
	if text != "" && text[len(text)-1] != '\n' {
		text += "\n"
	}
	text += fmt.Sprintf("[lines %d-%d of %d shown", first, shown, total)
	if shown < total {
		text += fmt.Sprintf("; read on with offset %d", shown+1)
	}
	return text + "]", nil
}

// openRegular opens t for reading, refusing directories and special files
// (a FIFO would block the read).
func (b *Box) openRegular(t target, tool string) (*os.File, error) {
	fi, err := b.fsRoot.Stat(t.rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist; list_dir shows what is there", t.rel)
	}
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory; use list_dir", t.rel)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); %s works on regular files only", t.rel, fi.Mode().Type(), tool)
	}
	return b.fsRoot.Open(t.rel)
}
