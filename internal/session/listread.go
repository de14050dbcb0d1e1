package session

import (
	"path/filepath"
	"runtime"
	"sync"
)

// readHeaders fills hs[i] for each position i in at with the header read
// from the file of session hs[i].Name, its journal's tail included; a
// file that cannot be read gets Err set. The files are read by up to
// GOMAXPROCS goroutines at once: a listing spends its time in open, read
// and the header's JSON, each file independent of the others.
func (s *Store) readHeaders(hs []Header, at []int) {
	workers := min(runtime.GOMAXPROCS(0), len(at))
	if workers <= 1 {
		for _, i := range at {
			s.readListed(&hs[i])
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				s.readListed(&hs[i])
			}
		})
	}
	for _, i := range at {
		next <- i
	}
	close(next)
	wg.Wait()
}

// readListed replaces *h with the header of session h.Name read from its
// file.
func (s *Store) readListed(h *Header) {
	name := h.Name
	read, err := s.header(name, filepath.Join(s.dir, name+fileExt))
	read.Name, read.Err = name, err
	if err == nil {
		s.headerTail(&read)
	}
	*h = read
}
