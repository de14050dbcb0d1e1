package session

import (
	"errors"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/chatcli/chatcli/internal/storefile"
)

// onListCheck runs before checkListed reads a file whole (a seam: tests
// count the files read).
var onListCheck = func(string) {}

// checkListed reads whole, for List, each file among hs[i], i in at, whose
// header the fast path read from a file without this store's mark
// (Header.unchecked, written.go): only then do List and Load agree on a
// file in chatcli's layout that something else edited past its header
// block. The files are read by up to GOMAXPROCS goroutines at once.
func (s *Store) checkListed(hs []Header, at []int) {
	var todo []int
	for _, i := range at {
		if hs[i].unchecked && hs[i].Err == nil {
			todo = append(todo, i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				s.checkWhole(&hs[i])
			}
		})
	}
	for _, i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
}

// checkWhole replaces *h with the header of session h.Name read from a
// scan of its whole file (scanWhole), its journal's tail counted in; a
// file that became sealed meanwhile is read as List reads it.
func (s *Store) checkWhole(h *Header) {
	name, p := h.Name, filepath.Join(s.dir, h.Name+fileExt)
	onListCheck(p)
	read, err := s.scanFile(name, p)
	read.Name, read.Err = name, err
	if err == nil {
		s.headerTail(&read)
	}
	*h = read
}

// scanFile reads the header of file p (session name) through its whole
// document.
func (s *Store) scanFile(name, p string) (Header, error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return Header{Messages: -1}, err
	}
	defer f.Close()
	h, err := headerOfFile(p, f, st)
	if errors.Is(err, errSealedFile) {
		return s.header(name, p)
	}
	if err != nil || !h.skipped {
		return h, err // read whole already
	}
	return scanWhole(p, f, st, h)
}
