package gateway

import (
	"context"
	"time"
)

// Backoff is the wait between reconnection attempts: Min after the first
// failure, doubled after each further one, at most Max; Reset after a
// success.
type Backoff struct {
	Min, Max time.Duration
	next     time.Duration
}

// DefaultBackoff waits 1 s, then 2, 4, … up to one minute.
func DefaultBackoff() Backoff { return Backoff{Min: time.Second, Max: time.Minute} }

// Wait sleeps for the next delay, or until ctx ends (then it returns
// ctx.Err()).
func (b *Backoff) Wait(ctx context.Context) error {
	if b.next < b.Min {
		b.next = b.Min
	}
	t := time.NewTimer(b.next)
	defer t.Stop()
	b.next = min(2*b.next, b.Max)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Reset makes the next Wait wait Min again.
func (b *Backoff) Reset() { b.next = 0 }
