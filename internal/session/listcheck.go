package session

import (
	"errors"

	"github.com/chatcli/chatcli/internal/storefile"
)

// onListCheck runs before listedHeader reads a file whole after its
// header block (a seam: tests count the files read).
var onListCheck = func(string) {}

// listedHeader reads, for List, the header of file p holding session
// name. The fast path's header (the first block alone) stands only for a
// file this store wrote and nothing changed since (writtenHere); a file
// in chatcli's layout without that mark is read on through its whole
// document, its messages checked as Load decodes them, through the same
// descriptor: only then do List and Load agree on a file that something
// else edited past its header block. A sealed file is read as Stat reads
// it.
func (s *Store) listedHeader(name, p string) (Header, error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h, err := headerOfFile(p, f, st)
	if errors.Is(err, errSealedFile) {
		return s.header(name, p)
	}
	if err != nil || !h.fast || writtenHere(f, st) {
		return h, err
	}
	onListCheck(p)
	return scanWhole(p, f, st, h)
}
