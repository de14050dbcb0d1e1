package editor

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestKeysTypedWhileALineEndsAreKept: lines typed one after another,
// each as soon as the one before was sent (a person typing on while the
// REPL hands over from one line to the next, or tmux's send-keys), all
// arrive whole and in order: no key read while an editor shuts down is
// lost. The terminal is a pipe, read as the REPL reads its terminal.
func TestKeysTypedWhileALineEndsAreKept(t *testing.T) {
	e, w := pipeEditor(t)
	const lines = 80
	go func() {
		for i := range lines {
			fmt.Fprintf(w, "line %d\r", i)
			time.Sleep(time.Duration(i%7) * time.Millisecond)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i := range lines {
		got, err := e.ReadLine(ctx, "> ")
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if want := fmt.Sprintf("line %d", i); got != want {
			t.Fatalf("line %d read as %q, want %q", i, got, want)
		}
	}
}

// BenchmarkReadLine is one typed line read through the interactive editor
// over a pipe: start the program, hand the keys over, exit at Enter.
func BenchmarkReadLine(b *testing.B) {
	old := isTerminal
	isTerminal = func(any) bool { return true }
	defer func() { isTerminal = old }()
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	e, err := New(Config{In: r, Out: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		io.WriteString(w, "a line\r")
		if got, err := e.ReadLine(ctx, "> "); err != nil || got != "a line" {
			b.Fatalf("%q %v", got, err)
		}
	}
}

// pipeEditor is an interactive editor reading the pipe whose write end
// it returns, as the REPL reads its terminal.
func pipeEditor(t *testing.T) (*Editor, *os.File) {
	t.Helper()
	interactive(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	e, err := New(Config{In: r, Out: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return e, w
}

// TestAPasteStartedAsALineEndsArrivesWhole: a bracketed paste that began
// before the line's Enter was handled (its first part read with the
// Enter, the rest later) is the next input, whole, line breaks and all,
// and a paste large enough to slow the editor down loses nothing typed
// after it. The fallback exit is set far away, so that a mark lost in a
// paste would time the test out.
func TestAPasteStartedAsALineEndsArrivesWhole(t *testing.T) {
	defer markLate.Store(markLate.Load())
	markLate.Store(int64(time.Minute))
	e, w := pipeEditor(t)
	big := strings.Repeat("x", 1<<20)
	go func() {
		io.WriteString(w, "one\r\x1b[200~first past")
		time.Sleep(30 * time.Millisecond)
		io.WriteString(w, "ed line\nsecond pasted line\nthird\x1b[201~\r")
		io.WriteString(w, "\x1b[200~"+big+"\x1b[201~\rafter\r")
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, want := range []string{"one", "first pasted line\nsecond pasted line\nthird", big, "after"} {
		got, err := e.ReadLine(ctx, "> ")
		if err != nil || got != want {
			t.Fatalf("read %.40q (%d bytes), %v; want %.40q", got, len(got), err, want)
		}
	}
}

// TestKeysAfterAnAnsweredKeyAreTypedAhead: what is typed on after a
// one-key answer (during a turn) is kept as keys typed during a turn are:
// text and Enter reach the next line; a Ctrl+D or an Esc Esc meant for the
// turn neither leaves the REPL nor opens a menu.
func TestKeysAfterAnAnsweredKeyAreTypedAhead(t *testing.T) {
	e, w := pipeEditor(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	io.WriteString(w, "y\x04\x1b\x1b")
	if k, err := e.ReadKey(ctx, "allow? ", []string{"y", "n"}); err != nil || k != "y" {
		t.Fatalf("ReadKey: %q %v", k, err)
	}
	io.WriteString(w, "next\r")
	if got, err := e.ReadLine(ctx, "> "); err != nil || got != "next" {
		t.Fatalf("the next line: %q %v", got, err)
	}
}

// TestACutPasteIsStillAPaste: bytes kept after a line whose paste was cut
// short decode to the keys before it and one paste of its part, never to
// a key a character (a line break in it would send the line).
func TestACutPasteIsStillAPaste(t *testing.T) {
	got := lateKeys([]byte("x\x1b[200~abc\ndef"))
	if len(got) != 2 || got[1] != tea.Msg(tea.PasteMsg{Content: "abc\ndef"}) {
		t.Fatalf("%#v", got)
	}
	if k, ok := got[0].(tea.KeyPressMsg); !ok || k.Text != "x" {
		t.Fatalf("%#v", got[0])
	}
	if got := lateKeys([]byte("y\x1b[20")); len(got) != 1 {
		t.Fatalf("a cut start marker: %#v", got)
	}
}
