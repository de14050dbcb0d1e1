package gatewaytest

import (
	"sync"
	"time"
)

// Board is the state of a fake platform server that tests wait on: Mu
// guards it, Changed wakes the waiters after a change.
type Board struct {
	Mu      sync.Mutex
	changed chan struct{}
}

// Changed wakes every Wait; call it with Mu held.
func (b *Board) Changed() {
	if b.changed != nil {
		close(b.changed)
	}
	b.changed = make(chan struct{})
}

// Wait waits until done, called with Mu held, reports true; false when
// timeout passes first.
func (b *Board) Wait(timeout time.Duration, done func() bool) bool {
	deadline := time.After(timeout)
	for {
		b.Mu.Lock()
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		ok, ch := done(), b.changed
		b.Mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
}

// Next returns the channel closed at the next change; call it with Mu
// held.
func (b *Board) Next() <-chan struct{} {
	if b.changed == nil {
		b.changed = make(chan struct{})
	}
	return b.changed
}
