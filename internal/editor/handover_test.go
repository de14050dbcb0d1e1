package editor

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"
	"time"
)

// TestKeysTypedWhileALineEndsAreKept: lines typed one after another,
// each as soon as the one before was sent (a person typing on while the
// REPL hands over from one line to the next, or tmux's send-keys), all
// arrive whole and in order: no key read while an editor shuts down is
// lost. The terminal is a pipe, read as the REPL reads its terminal.
func TestKeysTypedWhileALineEndsAreKept(t *testing.T) {
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
