package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/jsonscan"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// Header is what List shows of a session, read from the top of its file.
type Header struct {
	Name         string
	Title        string
	Messages     int       // number of messages in chat_history
	CreatedAt    time.Time // zero when the file does not say
	UpdatedAt    time.Time // stored updated_at; the file's mtime when absent
	Revision     int64
	TranscriptID string
	// JournalPos is the journal position the file covers (Session.JournalPos).
	JournalPos journal.Pos
	// Lineage is the session's parent (Session.Lineage); nil when none.
	Lineage   *Lineage
	Version   int
	SizeBytes int64
	// Err is non-nil when the file could not be read (ErrCorrupt,
	// ErrTooNew, …); the other fields are then partly empty.
	Err error
	// JournalWarnings name the damaged journal lines skipped while its
	// journal's tail was counted (Session.JournalWarnings). Not stored.
	JournalWarnings []journal.Warning

	// skipped keeps the header out of the list index: a sealed file's
	// (its title would be plaintext there).
	skipped bool
	// fast says the header was read from the first block alone (chatcli's
	// layout): the messages were neither read nor parsed.
	fast    bool
	modTime time.Time // the file's mtime when read; zero when unknown (see Store.Unchanged)
	// sealedNanos is a sealed file's mtime when read (Unix nanoseconds),
	// for the journal tail alone (readTailIn): modTime stays zero.
	sealedNanos int64
	ino         uint64 // the file's inode and ctime when read (inodeChange)
	ctimeNanos  int64
	// marked says the read set the file's mark (markChecked): ctimeNanos
	// is the ctime the mark left.
	marked bool
}

// headerBufBytes is the read buffer for headers: a chatcli-written header
// fits in it, so listing reads one block per file.
const headerBufBytes = 4096

// readHeader reads the header of the session file at path. For files chatcli
// wrote, it stops at chat_history once every header member was seen: the
// messages are neither read nor parsed. Files from other programs (no
// message_count before chat_history), and files of chatcli's whose ending
// is not chatcli's, are read whole by a byte scan (Header.scan) that counts
// the messages without decoding them, in memory that does not depend on
// the file's size.
func readHeader(path string) (Header, error) {
	f, st, err := storefile.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	return headerOfFile(path, f, st)
}

// headerOfFile is readHeader for the file at path opened as f, at offset
// 0 (f's offset is left anywhere), whose fstat is st.
func headerOfFile(path string, f *os.File, st fs.FileInfo) (Header, error) {
	h, whole, err := headerBlock(path, f, st)
	if whole {
		return scanWhole(path, f, st, h)
	}
	return h, err
}

// headerBlock is headerOfFile without the whole read: whole reports a
// file whose header its first block does not give (another layout, or
// not the ending chatcli writes), which scanWhole must read, from h as
// read so far.
func headerBlock(path string, f *os.File, st fs.FileInfo) (h Header, whole bool, err error) {
	h = Header{SizeBytes: st.Size(), Version: 1, Messages: -1, modTime: st.ModTime()}
	h.ino, h.ctimeNanos = inodeChange(st)
	if st.Size() == 0 {
		return h, false, classify(path, errEmpty)
	}
	err = h.decodeFast(f)
	if err == errSealedFile {
		return h, false, err
	}
	if err == nil {
		if h.Version > FormatVersion {
			return h, false, classify(path, errTooNew{h.Version})
		}
		if h.UpdatedAt.IsZero() {
			h.UpdatedAt = st.ModTime()
		}
		if checkTail(f, st.Size()) == nil {
			return h, false, nil
		}
		// Not the ending chatcli writes ("]}"): a file cut short after an
		// intact header, or one whose last member is no array. Reading the
		// whole document tells them apart.
	}
	return h, true, nil
}

// scanWhole reads the header of the file at path, opened as f with fstat
// st, by a scan of the whole document from its start (Header.scan); on
// an error it returns partial, what the caller read before, with the
// error.
func scanWhole(path string, f *os.File, st fs.FileInfo, partial Header) (Header, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return partial, fmt.Errorf("session: read %s: %w", path, err)
	}
	full := Header{SizeBytes: st.Size(), Version: 1, Messages: -1, modTime: st.ModTime()}
	full.ino, full.ctimeNanos = inodeChange(st)
	if err := full.scan(f); err != nil {
		if errors.Is(err, jsonscan.ErrSyntax) || errors.Is(err, errFormat) {
			return partial, classify(path, err)
		}
		return partial, fmt.Errorf("session: read %s: %w", path, err)
	}
	if full.Version > FormatVersion {
		return full, classify(path, errTooNew{full.Version})
	}
	if full.UpdatedAt.IsZero() {
		full.UpdatedAt = st.ModTime()
	}
	return full, nil
}

var headerBufs = sync.Pool{New: func() any { b := make([]byte, headerBufBytes); return &b }}

// chatHistoryKey starts the last member of a file chatcli wrote.
var chatHistoryKey = []byte(",\n\"chat_history\":[")

var errSlowPath = errors.New("header not in chatcli's layout")

// decodeFast reads the first block of a file in chatcli's own layout and
// decodes the members before chat_history (decodeHead). Any other layout
// returns errSlowPath.
func (h *Header) decodeFast(f io.Reader) error {
	bp := headerBufs.Get().(*[]byte)
	defer headerBufs.Put(bp)
	n, err := io.ReadFull(f, *bp)
	if err != nil && err != io.ErrUnexpectedEOF {
		return err
	}
	block := (*bp)[:n]
	if IsSealedFile(block) || seal.IsChatCLIEnvelope(block) {
		return errSealedFile
	}
	i := bytes.Index(block, chatHistoryKey)
	if i < 0 || !bytes.Contains(block[:i], []byte(`"message_count":`)) {
		return errSlowPath
	}
	var w headMembers
	if !decodeHead(block[:i], &w) {
		return errSlowPath
	}
	h.Version, h.Title, h.CreatedAt, h.UpdatedAt = w.Version, w.Title, w.CreatedAt, w.UpdatedAt
	h.Revision, h.Messages, h.TranscriptID, h.JournalPos = w.Revision, w.MessageCount, w.TranscriptID, w.JournalPos
	h.Lineage = decodeLineage(w.Lineage)
	h.fast = true
	return nil
}

// Endings of the files chatcli writes: the per-mode arrays last, the
// last one empty (shared_memory, nearly always), or chat_history last
// (files written before the checkpoints moved after the messages). Neither
// can end a file cut inside a member: a message, and every other member
// chatcli writes, is one line, and JSON strings escape "\n".
var fileEndings = [][]byte{[]byte("\n\"shared_memory\":[]}"), []byte("\n]}")}

// checkTail reports a file whose last 64 bytes do not end (spaces aside)
// with one of fileEndings. It reads only the last block.
func checkTail(f io.ReaderAt, size int64) error {
	const tail = 64
	off := max(size-tail, 0)
	buf := make([]byte, size-off)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return err
	}
	buf = bytes.TrimRight(buf, " \t\r\n")
	for _, end := range fileEndings {
		if bytes.HasSuffix(buf, end) {
			return nil
		}
	}
	return io.ErrUnexpectedEOF
}
