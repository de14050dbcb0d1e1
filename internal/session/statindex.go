// Stat's use of the list index.

package session

import (
	"io/fs"
	"path/filepath"
	"sync"
)

// listedIndex is the list index as Stat last read it, with the stamp its
// file had then: read again only when that stamp changes, so a picker's
// Stat of each of n rows reads it once, not n times. Any version of the
// index is sound to ask: an entry answers only for the file stamp it was
// made for.
type listedIndex struct {
	mu    sync.Mutex
	stamp fileStamp
	idx   listIndex
}

// indexedHeader returns the header the list index keeps for file p when
// p is a file of the sessions folder and the entry answers for st, p's
// fstat, by List's rules (listIndex.lookup: size, mtime, inode and ctime,
// not racy, this build's rules); its Err is the verdict of a file Load
// refuses as corrupt.
func (s *Store) indexedHeader(p string, st fs.FileInfo) (Header, bool) {
	if filepath.Dir(p) != filepath.Clean(s.dir) {
		return Header{}, false
	}
	ip := s.listIndexPath()
	is, ok := dirHandle{dir: filepath.Dir(ip), fd: -1}.pathStamp(filepath.Base(ip))
	if !ok {
		return Header{}, false
	}
	c := &s.listed
	c.mu.Lock()
	if c.idx == nil || c.stamp != is {
		c.idx, c.stamp = s.readListIndex(), is
	}
	idx := c.idx // never changed once read: a new read makes a new map
	c.mu.Unlock()
	ino, ctime := inodeChange(st)
	return idx.lookup(filepath.Base(p), fileStamp{size: st.Size(), mtimeNanos: st.ModTime().UnixNano(), ino: ino, ctimeNanos: ctime,
		regular: st.Mode().IsRegular()})
}
