package editor

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// heldOpen is input that, after its bytes, blocks like an idle terminal
// until the test ends. Several programs may read it at once.
func heldOpen(t *testing.T, s string) io.Reader {
	r := &termInput{data: []byte(s), done: make(chan struct{})}
	t.Cleanup(func() { close(r.done) })
	return r
}

type termInput struct {
	mu   sync.Mutex
	data []byte
	done chan struct{}
}

func (r *termInput) Read(p []byte) (int, error) {
	r.mu.Lock()
	if len(r.data) > 0 {
		n := copy(p, r.data)
		r.data = r.data[n:]
		r.mu.Unlock()
		return n, nil
	}
	r.mu.Unlock()
	<-r.done
	return 0, io.EOF
}

// interactive makes ReadLine run the bubbletea editor over pipes.
func interactive(t *testing.T) {
	t.Helper()
	old := isTerminal
	isTerminal = func(any) bool { return true }
	t.Cleanup(func() { isTerminal = old })
}

// readToEOF reads lines from e until io.EOF, handing each to each (when
// not nil) as it comes.
func readToEOF(t *testing.T, ctx context.Context, e *Editor, each func(string)) []string {
	t.Helper()
	var got []string
	for {
		line, err := e.ReadLine(ctx, "> ")
		if errors.Is(err, io.EOF) {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
		if each != nil {
			each(line)
		}
	}
}

// readOne runs one interactive ReadLine over input.
func readOne(t *testing.T, cfg Config, input string) (string, error, string) {
	t.Helper()
	interactive(t)
	var out bytes.Buffer
	cfg.In, cfg.Out = heldOpen(t, input), &out
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	line, err := e.ReadLine(ctx, "» ")
	return line, err, out.String()
}

func TestReadLineInteractive(t *testing.T) {
	cands := []string{"/session list", "/session load"}
	cfg := Config{
		HistoryFile: filepath.Join(t.TempDir(), "history"),
		Complete:    func(string) []string { return cands },
	}
	tests := []struct {
		name, input, want string
		err               error
	}{
		{"typing and backspace", "documenta\u00e7\u00e3oX\x7f\r", "documentação", nil},
		{"emoji", "ok 🎉\x7f👍\r", "ok 👍", nil},
		{"ctrl+a inserts at start", "bc\x01a\r", "abc", nil},
		{"tab cycles", "/s\t\t\t\r", "/session load", nil},
		{"ctrl+d on empty line", "\x04", "", io.EOF},
		{"ctrl+c", "abc\x03", "", ErrInterrupt},
		{"esc esc", "\x1b\x1b", "", ErrDoubleEsc},
		{"bracketed paste", "a\x1b[200~if x:\r\n\ty()\r\r  z\x1b[201~\r", "aif x:\n\ty()\n\n  z", nil},
		{"alt+enter", "one\x1b\rtwo\r", "one\ntwo", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, err, out := readOne(t, cfg, tt.input)
			if line != tt.want || !errors.Is(err, tt.err) {
				t.Fatalf("got %q, %v; want %q, %v", line, err, tt.want, tt.err)
			}
			if !strings.Contains(out, "»") {
				t.Fatalf("prompt not drawn: %q", out)
			}
		})
	}
}

func TestReadLineKeepsTypeahead(t *testing.T) {
	interactive(t)
	// Three lines and Ctrl+D arrive in one read, as when typed during
	// streamed output; the first program reads them all. The first Enter
	// was typed in cooked mode, so it arrives as a line feed.
	e, err := New(Config{In: heldOpen(t, "one\ntwo 🎉\r\x1b[A!\r\x04"), Out: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := readToEOF(t, ctx, e, func(line string) {
		if err := e.Add(line); err != nil {
			t.Fatal(err)
		}
	})
	if want := []string{"one", "two 🎉", "two 🎉!"}; !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

func TestReadLineHistoryFromFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, []byte("older\nnewest\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	line, err, _ := readOne(t, Config{HistoryFile: path}, "\x1b[A\x1b[A\x1b[B!\r")
	if err != nil || line != "newest!" {
		t.Fatalf("got %q, %v", line, err)
	}
}

func TestReadLineContextCancelled(t *testing.T) {
	interactive(t)
	e, err := New(Config{In: heldOpen(t, ""), Out: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := e.ReadLine(ctx, "> "); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the context's", err)
	}
}

func TestReadLinePlainInput(t *testing.T) {
	var out bytes.Buffer
	e, err := New(Config{In: strings.NewReader("first\r\nsecond\nlast"), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		line, err := e.ReadLine(context.Background(), "> ")
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line)
	}
	if !slices.Equal(got, []string{"first", "second", "last"}) {
		t.Fatalf("lines %q", got)
	}
	if out.String() != strings.Repeat("> ", 4) {
		t.Fatalf("output %q", out.String())
	}
}

func TestNewReportsBadHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	if err := os.WriteFile(path, []byte("\xff\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := New(Config{HistoryFile: path, In: strings.NewReader("")})
	if !errors.Is(err, ErrCorruptHistory) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err %v", err)
	}
	if got := readFile(t, path); got != "\xff\n" {
		t.Fatalf("corrupt file changed: %q", got)
	}
}

func TestAddAndHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history")
	e, err := New(Config{HistoryFile: path, HistoryMax: 50, In: strings.NewReader("")})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 10 {
				if err := e.Add(strings.Repeat("x", i+1) + string(rune('a'+j))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	h := e.History()
	if len(h) != 40 {
		t.Fatalf("%d entries", len(h))
	}
	h[0] = "changed"
	if e.History()[0] == "changed" {
		t.Fatal("History returned the editor's own slice")
	}
	reloaded, err := New(Config{HistoryFile: path, In: strings.NewReader("")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reloaded.History(), e.History()) {
		t.Fatalf("reloaded %q", reloaded.History())
	}
}
