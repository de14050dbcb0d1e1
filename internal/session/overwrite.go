package session

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/storefile"
)

// onFullCheck runs before checkOverwrite decodes a whole file (a seam:
// tests count the files read).
var onFullCheck = func(string) {}

// fileID is what tells a file this store wrote or verified from any other
// at the same path: its inode, size, modification time and revision, and
// its status-change time (ctime, Unix nanoseconds; 0 where the system
// gives none), which no program can set back.
type fileID struct {
	dev, ino uint64
	size     int64
	mtime    time.Time
	revision int64
	ctime    int64
}

// knownFiles holds the fileID of each path this store last wrote or
// verified, by path, each from the file itself (its descriptor, or the
// temporary file before the rename), never from a later stat of the path.
type knownFiles struct {
	mu  sync.Mutex
	ids map[string]fileID
}

// idOf returns the fileID of the open file f whose header revision is rev.
func idOf(st fs.FileInfo, rev int64) fileID {
	id := fileID{size: st.Size(), mtime: st.ModTime(), revision: rev}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		id.dev, id.ino = uint64(sys.Dev), sys.Ino
	}
	_, id.ctime = inodeChange(st)
	return id
}

// set records id as the file at p.
func (k *knownFiles) set(p string, id fileID) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ids == nil {
		k.ids = map[string]fileID{}
	}
	k.ids[p] = id
}

// known reports whether p is still the file last remembered: the same
// inode, size, mtime and revision, and a ctime at most markSlack after
// the one remembered (the rename and the written mark that follow a
// write move it), as writtenHere allows the mark. So an edit in place
// that restores the size and the mtime is seen here too, once markSlack
// has passed.
func (k *knownFiles) known(p string, st fs.FileInfo, rev int64) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	id, ok := k.ids[p]
	if !ok {
		return false
	}
	now := idOf(st, rev)
	if !withinSlack(id.ctime, now.ctime) {
		return false
	}
	now.ctime = id.ctime
	return id == now
}

// checkOverwrite refuses to replace a file that exists but that Load
// refuses: a sealed file must open with the store's key, a plaintext one
// decode whole (wrong types, bad escapes and a newer version included),
// read as it streams by, its messages checked and dropped batch by batch.
// The decode is skipped for the file this store last wrote or verified at
// p (same inode, size, modification time and revision; the caller holds
// the session's lock).
func (s *Store) checkOverwrite(p string) error {
	err := s.checkFile(p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return i18n.Errorf("%w; refusing to overwrite it (move or delete it first)", err)
	}
	return nil
}

func (s *Store) checkFile(p string) error {
	if _, err := os.Lstat(p); err != nil {
		return err
	}
	f, st, err := storefile.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	h, err := headerOfFile(p, f, st) // the revision and the identity of one open file
	if errors.Is(err, errSealedFile) {
		return s.checkSealed(p, f, st)
	}
	if err != nil {
		return err
	}
	if s.known.known(p, st, h.Revision) {
		return nil
	}
	onFullCheck(p)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := CheckReader(f); err != nil {
		return classifyRead(p, err)
	}
	s.known.set(p, idOf(st, h.Revision))
	return nil
}

// readFrom reads the whole of f from its start.
func readFrom(f *os.File) ([]byte, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

// CheckReader reads a session document from r as DecodeReader does,
// with its errors, but keeps none of its messages: its memory is a few
// megabytes whatever the document's size.
func CheckReader(r io.Reader) error {
	_, err := decodeReader(r, true)
	return err
}

// checkDocument is CheckReader for a document in memory.
func checkDocument(data []byte) error { return CheckReader(bytes.NewReader(data)) }
