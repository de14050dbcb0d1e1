package session

import (
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// listChunk is how many headers a listing goroutine takes at a time.
const listChunk = 32

// completeHeaders brings every header of hs up to date with its journal's
// tail, after reading from its file the header of each hs[i] for i in
// unread (a file that cannot be read gets Err set). It returns those
// headers as read, before their tails, in unread's order: what the list
// index keeps. The work is shared by up to GOMAXPROCS goroutines: a
// listing spends its time in system calls and the headers' JSON, each
// file independent of the others.
func (s *Store) completeHeaders(hs []Header, unread []int) []Header {
	read := make([]Header, len(unread))
	at := make([]int32, len(hs)) // at[i] is 1 + the position of i in unread, 0 when hs[i] is complete
	for k, i := range unread {
		at[i] = int32(k + 1)
	}
	journals := openDir(s.journalDir)
	defer journals.close()
	var next atomic.Int64
	work := func() {
		for {
			end := int(next.Add(listChunk))
			start := end - listChunk
			if start >= len(hs) {
				return
			}
			for i := start; i < min(end, len(hs)); i++ {
				if k := at[i]; k > 0 {
					s.readListed(&hs[i])
					read[k-1] = hs[i]
				}
				if hs[i].Err == nil {
					s.headerTailIn(&hs[i], journals)
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (len(hs)+listChunk-1)/listChunk)
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return read
}

// readListed replaces *h with the header of session h.Name read from its
// file (checkedHeader), without its journal's tail.
func (s *Store) readListed(h *Header) {
	name := h.Name
	read, err := s.checkedHeader(name, filepath.Join(s.dir, name+fileExt))
	read.Name, read.Err = name, err
	*h = read
}
