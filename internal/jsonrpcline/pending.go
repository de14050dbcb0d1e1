package jsonrpcline

import (
	"encoding/json"
	"sync"
	"time"
)

// IDKey is id as JSON-RPC compares ids: a string's value (whatever its
// escapes), a number's text.
func IDKey(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return "s" + s
	}
	return "n" + string(id)
}

// Pending counts the calls a server read and has not answered yet, by id,
// so that the end of the input can wait for their answers (nothing read is
// dropped). It is safe for concurrent use.
type Pending struct {
	mu     sync.Mutex
	done   *sync.Cond
	n      map[string]int
	closed bool
}

// NewPending returns an empty Pending.
func NewPending() *Pending {
	p := &Pending{n: map[string]int{}}
	p.done = sync.NewCond(&p.mu)
	return p
}

// Add counts one more call under id.
func (p *Pending) Add(id json.RawMessage) {
	p.mu.Lock()
	p.n[IDKey(id)]++
	p.mu.Unlock()
}

// Answered counts a response under id: one call fewer, when one is
// pending under it.
func (p *Pending) Answered(id json.RawMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := IDKey(id)
	if p.n[k] == 0 {
		return
	}
	if p.n[k]--; p.n[k] == 0 {
		delete(p.n, k)
	}
	p.done.Broadcast()
}

// Wait blocks until no call is pending, Close was called, or d passed.
func (p *Pending) Wait(d time.Duration) {
	timer := time.AfterFunc(d, p.Close)
	defer timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.closed && len(p.n) > 0 {
		p.done.Wait()
	}
}

// Close ends every Wait, now and later.
func (p *Pending) Close() {
	p.mu.Lock()
	p.closed = true
	p.done.Broadcast()
	p.mu.Unlock()
}
