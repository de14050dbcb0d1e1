package editor

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// ErrCorruptHistory reports a history file that is not text: it holds a NUL
// byte or invalid UTF-8. Such a file is never rewritten.
var ErrCorruptHistory = errors.New("editor: corrupt history file")

// defaultHistoryMax is the number of entries kept when Config.HistoryMax <= 0.
const defaultHistoryMax = 1000

// Permissions of the history file and of the directory created for it.
const (
	historyFilePerm os.FileMode = 0o600
	historyDirPerm  os.FileMode = 0o700
)

// history is the in-memory list of entries (oldest first) and its file.
// It is not safe for concurrent use; Editor guards it.
type history struct {
	path       string   // "" disables persistence
	maxEntries int      // entries kept, in memory and on disk
	maxBytes   int64    // size cap of the file in bytes; 0 for none
	entries    []string // oldest first, at most maxEntries
	codec      lineCodec
}

// loadHistory reads path, keeping its last maxEntries entries (the default
// when maxEntries <= 0). A missing file yields an empty history. A file
// holding lines in another form than codec writes (plaintext lines when
// sealing, sealed ones when not) is rewritten in its form.
func loadHistory(path string, maxEntries int, codec lineCodec) (*history, error) {
	if maxEntries <= 0 {
		maxEntries = defaultHistoryMax
	}
	h := &history{path: path, maxEntries: maxEntries, codec: codec}
	if path == "" {
		return h, nil
	}
	entries, stale, err := readHistoryFile(path, codec)
	if err != nil {
		return nil, err
	}
	h.entries = lastN(entries, maxEntries)
	if stale {
		return h, rewriteHistoryFile(path, h.entries, codec)
	}
	return h, nil
}

// add appends line unless it is blank or repeats the newest entry, and
// persists it. It reports whether the line was added.
func (h *history) add(line string) (bool, error) {
	if strings.TrimSpace(line) == "" {
		return false, nil
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == line {
		return false, nil
	}
	h.entries = h.keep(append(h.entries, line))
	if h.path == "" {
		return true, nil
	}
	if err := appendHistoryFile(h.path, line, h.codec); err != nil {
		return true, err
	}
	// Count what is on disk, not what this process wrote, so entries that
	// other processes appended are counted and kept (and sealed).
	onDisk, stale, err := readHistoryFile(h.path, h.codec)
	if err != nil {
		return true, err
	}
	kept := h.keep(onDisk)
	if len(kept) == len(onDisk) && !stale {
		return true, nil
	}
	return true, rewriteHistoryFile(h.path, kept, h.codec)
}

// snapshot returns a copy of the entries, oldest first.
func (h *history) snapshot() []string {
	return append([]string(nil), h.entries...)
}

// readHistoryFile decodes every entry of the file at path and reports
// whether a line is in another form than codec writes. A missing file
// holds no entries.
func readHistoryFile(path string, codec lineCodec) (entries []string, stale bool, err error) {
	data, err := storefile.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("editor: read history file %s: %w", path, err)
	}
	for i, raw := range bytes.Split(data, []byte{'\n'}) {
		if len(bytes.TrimSuffix(raw, []byte("\r"))) == 0 {
			continue
		}
		entry, other, err := codec.decode(path, i+1, raw)
		if err != nil {
			return nil, false, err
		}
		entries, stale = append(entries, entry), stale || other
	}
	return entries, stale, nil
}

// appendHistoryFile appends one encoded entry with a single write, starting
// a new line first if the file does not end with one.
func appendHistoryFile(path, entry string, codec lineCodec) error {
	line, err := codec.encode(entry)
	if err != nil {
		return fmt.Errorf("editor: append to history file %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), historyDirPerm); err != nil {
		return fmt.Errorf("editor: history dir for %s: %w", path, err)
	}
	f, _, err := storefile.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, historyFilePerm)
	if err != nil {
		return fmt.Errorf("editor: open history file %s: %w", path, err)
	}
	rec := string(line) + "\n"
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			rec = "\n" + rec
		}
	}
	_, err = f.WriteString(rec)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("editor: append to history file %s: %w", path, err)
	}
	return nil
}

// rewriteHistoryFile replaces the file at path with entries atomically:
// temp file in the same directory, write, fsync, close, rename, fsync dir.
// On any error the temp file is removed and the old file is untouched.
func rewriteHistoryFile(path string, entries []string, codec lineCodec) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, historyDirPerm); err != nil {
		return fmt.Errorf("editor: history dir for %s: %w", path, err)
	}
	var buf bytes.Buffer
	for _, e := range entries {
		line, err := codec.encode(e)
		if err != nil {
			return fmt.Errorf("editor: rewrite history file %s: %w", path, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	// atomicfile creates the file 0600 (historyFilePerm).
	if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
		return fmt.Errorf("editor: rewrite history file %s: %w", path, err)
	}
	return nil
}

// encodeEntry returns the one-line form of an entry (see doc.go): verbatim
// unless it holds a line break or starts with a backslash or with the
// sealed-line prefix; then a backslash followed by the entry with \, LF
// and CR escaped.
func encodeEntry(s string) string {
	if !strings.ContainsAny(s, "\n\r") && !strings.HasPrefix(s, `\`) && !seal.IsSealedLine([]byte(s)) {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`)
	return `\` + r.Replace(s)
}

// decodeEntry inverts encodeEntry. In an escaped line, an unknown escape
// or a trailing lone backslash is kept as written.
func decodeEntry(line string) string {
	if !strings.HasPrefix(line, `\`) {
		return line
	}
	s := line[1:]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i+1])
		}
		i++
	}
	return b.String()
}

// lastN returns the last n elements of s.
func lastN(s []string, n int) []string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
