package render

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the spinner's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestSpinnerShowsTheLabelAndIsClearedBeforeOutput(t *testing.T) {
	var out syncBuffer
	s := NewSpinner(&out)
	s.delay = 0
	s.Start("waiting for the model")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "waiting for the model… 0s") {
		if time.Now().After(deadline) {
			t.Fatalf("no frame drawn: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	w := Before(&out, s.Stop)
	w.Write([]byte("Hello"))
	got := out.String()
	if !strings.HasSuffix(got, "\r\x1b[KHello") {
		t.Fatalf("the line was not cleared before the output: %q", got)
	}
	time.Sleep(150 * time.Millisecond) // no frame after the output
	if out.String() != got {
		t.Fatalf("the spinner drew after it stopped: %q", out.String())
	}
	s.Stop() // idempotent
}

func TestSpinnerStoppedBeforeItsDelayDrawsNothing(t *testing.T) {
	var out syncBuffer
	s := NewSpinner(&out)
	stop := s.Start("searching")
	stop()
	if out.String() != "" {
		t.Fatalf("a quick activity drew %q", out.String())
	}
}
