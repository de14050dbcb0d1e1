package session

import (
	"errors"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// listChunk is how many headers a listing goroutine takes at a time.
const listChunk = 32

// Progress of the files List reads whole (SetListProgress): reported once
// those reads have run for listProgressDelay, then every
// listProgressEvery. Variables: tests shorten them.
var (
	listProgressDelay = time.Second
	listProgressEvery = 100 * time.Millisecond
)

// SetListProgress has List call fn while it reads files whole, the ones
// neither the list index nor their first block answers for (a store
// written by an earlier build, files of other programs, files edited
// since): done of total files read so far. fn is called from another
// goroutine, first once those reads have run for about a second, then
// about every 100 ms, and last with done == total when they are over (a
// printer clears its line then); a listing that needs no whole read, or
// ends within that second, never calls it. nil, the default, reports
// nothing. Set it before listing; it is not safe to change while a List
// runs.
func (s *Store) SetListProgress(fn func(done, total int)) { s.progress = fn }

// completeHeaders brings every header of hs up to date with its journal's
// tail, after reading from its file the header of each hs[i] for i in
// unread (a file that cannot be read gets Err set). It returns those
// headers as read, before their tails, in unread's order: what the list
// index keeps. A first pass reads the first block of each file; the files
// it cannot answer for are read whole in a second, whose progress is
// reported (SetListProgress).
func (s *Store) completeHeaders(hs []Header, unread []int) []Header {
	read := make([]Header, len(unread))
	at := make([]int32, len(hs)) // at[i] is 1 + the position of i in unread, 0 when hs[i] is complete
	for k, i := range unread {
		at[i] = int32(k + 1)
	}
	journals := openDir(s.journalDir)
	defer journals.close()
	complete := func(i int, blockOnly bool) bool {
		if k := at[i]; k > 0 {
			if !s.readListed(&hs[i], blockOnly) {
				return false
			}
			read[k-1] = hs[i]
		}
		if hs[i].Err == nil {
			s.headerTailIn(&hs[i], journals)
		}
		return true
	}
	var mu sync.Mutex
	var whole []int // positions in hs of the headers to read whole
	inParallel(len(hs), listChunk, func(i int) {
		if !complete(i, true) {
			mu.Lock()
			whole = append(whole, i)
			mu.Unlock()
		}
	})
	if len(whole) == 0 {
		return read
	}
	var done atomic.Int64
	stop := s.reportProgress(len(whole), &done)
	inParallel(len(whole), 1, func(j int) {
		complete(whole[j], false)
		done.Add(1)
	})
	stop()
	return read
}

// inParallel calls fn(i) for every i in [0, n), chunk at a time, on up to
// GOMAXPROCS goroutines: a listing spends its time in system calls and
// the headers' JSON, each file independent of the others.
func inParallel(n, chunk int, fn func(i int)) {
	var next atomic.Int64
	work := func() {
		for {
			end := int(next.Add(int64(chunk)))
			start := end - chunk
			if start >= n {
				return
			}
			for i := start; i < min(end, n); i++ {
				fn(i)
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// reportProgress reports, on its own goroutine, done of total whole reads
// to the store's progress function (SetListProgress), until the returned
// stop is called.
func (s *Store) reportProgress(total int, done *atomic.Int64) (stop func()) {
	fn := s.progress
	if fn == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		delay := time.NewTimer(listProgressDelay)
		defer delay.Stop()
		select {
		case <-quit:
			return
		case <-delay.C:
		}
		tick := time.NewTicker(listProgressEvery)
		defer tick.Stop()
		for {
			fn(int(done.Load()), total)
			select {
			case <-quit:
				fn(total, total)
				return
			case <-tick.C:
			}
		}
	})
	return func() { close(quit); wg.Wait() }
}

// readListed replaces *h with the header of session h.Name read from its
// file (checkedHeader), without its journal's tail. With blockOnly, a
// file that must be read whole is left as it is, and readListed reports
// false.
func (s *Store) readListed(h *Header, blockOnly bool) bool {
	name := h.Name
	read, err := s.readChecked(name, filepath.Join(s.dir, name+fileExt), blockOnly, false)
	if errors.Is(err, errWholeRead) {
		return false
	}
	read.Name, read.Err = name, err
	*h = read
	return true
}
