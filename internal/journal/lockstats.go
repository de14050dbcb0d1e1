package journal

import (
	"sync"
	"time"
)

// LockStats sums waits for locks (the journal locks of this process, or a
// session store's locks), for performance checks (the stress test,
// CHATCLI_DEBUG_LOCKSTATS).
type LockStats struct {
	// Acquired counts the locks taken (or given up on), Contended those
	// that had to wait for another holder.
	Acquired, Contended int64
	// TotalWait and MaxWait are the time spent waiting, in all and at most.
	TotalWait, MaxWait time.Duration
}

type lockCounter struct {
	mu sync.Mutex
	s  LockStats
}

var lockStats lockCounter

// Add sums o into s (the longest wait is the longer of the two).
func (s *LockStats) Add(o LockStats) {
	s.Acquired += o.Acquired
	s.Contended += o.Contended
	s.TotalWait += o.TotalWait
	s.MaxWait = max(s.MaxWait, o.MaxWait)
}

func (c *lockCounter) add(wait time.Duration, contended bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.s.Acquired++
	if contended {
		c.s.Contended++
	}
	c.s.TotalWait += wait
	c.s.MaxWait = max(c.s.MaxWait, wait)
}

// Locks returns the journal-lock figures of this process so far.
func Locks() LockStats {
	lockStats.mu.Lock()
	defer lockStats.mu.Unlock()
	return lockStats.s
}
