// Sealed session files: the container that holds a session under
// encryption at rest (layout in doc.go, "Encryption at rest").

package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// ErrEncrypted is wrapped when a sealed session file is met without an
// encryption key: the error reads `session "X" is encrypted; set
// CHATCLI_ENCRYPTION_KEY`. Such a file is never overwritten.
var ErrEncrypted = errors.New("encrypted; set CHATCLI_ENCRYPTION_KEY")

// Container layout constants (see doc.go).
const (
	containerMagic   = "\x89CSS\r\n\x1a\n"         // chatcli sealed session
	containerVersion = 2                           // written; versions 1 and 2 are read
	containerV1      = 1                           // a body that is one seal envelope
	containerPrefix  = len(containerMagic) + 1 + 4 // magic, version, uint32 header length
	// maxHeaderEnvelopeBytes bounds the header envelope: a header is a few
	// hundred bytes, so anything larger is damage, not a session.
	maxHeaderEnvelopeBytes = 1 << 20
	saltOffset, saltBytes  = 9, 32 // the salt inside a seal envelope (seal's doc.go)
)

// IsSealedFile reports whether data starts with the sealed-session magic.
func IsSealedFile(data []byte) bool { return bytes.HasPrefix(data, []byte(containerMagic)) }

// errSealedFile is what readHeader returns for a sealed container: the
// caller (Store.header) opens it with the store's key.
var errSealedFile = errors.New("sealed session file")

// sealedHeader is the plaintext of the header envelope.
type sealedHeader struct {
	Version      int          `json:"version"`
	Title        string       `json:"title"`
	CreatedAt    time.Time    `json:"created_at,omitzero"`
	UpdatedAt    time.Time    `json:"updated_at,omitzero"`
	Revision     int64        `json:"revision"`
	MessageCount int          `json:"message_count"`
	TranscriptID string       `json:"transcript_id,omitempty"`
	JournalPos   *journal.Pos `json:"journal_pos,omitempty"`
	Lineage      *Lineage     `json:"lineage,omitempty"`
	BodySalt     []byte       `json:"body_salt"`            // bytes 9..40 of the body envelope
	BodyBytes    int64        `json:"body_bytes,omitempty"` // length of the body envelope; version 1 only
	container    byte         // the container version it was read from
}

// headerName and bodyName are the names the two envelopes are bound to.
func headerName(name string) string { return "header:" + name }
func bodyName(name string) string   { return name }

// SetKey turns encryption at rest on (a key from seal.ParseKey) or off
// (the zero Key): with a key every session file written is sealed, and
// sealed files are opened; without one, sealed files are refused
// (ErrEncrypted) and never overwritten. Plaintext files are read either way.
// What the store learnt of the previous key (KeyRefusal) is forgotten.
func (s *Store) SetKey(k seal.Key) { s.key, s.keys = k, keyState{} }

// Key is the store's encryption key; the zero Key when encryption is off.
func (s *Store) Key() seal.Key { return s.key }

// nameOf is the session name of a file in the sessions folder.
func nameOf(p string) string { return strings.TrimSuffix(filepath.Base(p), fileExt) }

// headerOf gives the header values of sess as Save records them.
func headerOf(sess *Session) *sealedHeader {
	h := &sealedHeader{Version: FormatVersion, Title: sess.Title, CreatedAt: sess.CreatedAt, UpdatedAt: sess.UpdatedAt,
		Revision: sess.Revision, MessageCount: len(sess.History), TranscriptID: sess.TranscriptID, Lineage: sess.Lineage}
	if sess.JournalPos.Seq > 0 && sess.TranscriptID != "" {
		pos := sess.JournalPos
		h.JournalPos = &pos
	}
	return h
}

// containerError describes a sealed file that cannot be opened: err
// wraps a seal sentinel (but ErrBadKey) or ErrEncrypted. Any other error
// (nil, a read or write error, a document's) is returned as it is.
func (s *Store) containerError(name, p string, err error) error {
	switch {
	case errors.Is(err, ErrEncrypted):
		s.sawSealed()
		return i18n.Errorf("session %q is %w", name, ErrEncrypted)
	case errors.Is(err, seal.ErrWrongKey):
		s.refuseKey(name)
		return i18n.Errorf("session %q: wrong encryption key or damaged file (%s): %w; it was not changed (it opens only with the key that sealed it)", name, p, err)
	case errors.Is(err, seal.ErrTooNew):
		return fmt.Errorf("%w: %s: %v; it was not changed (upgrade chatcli to open it)", ErrTooNew, p, err)
	case errors.Is(err, seal.ErrCorrupt) || errors.Is(err, seal.ErrNotSealed):
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, p, err)
	}
	return err
}

// readPrefix reads the fixed prefix and returns the header envelope length
// and the container version.
func readPrefix(r io.Reader, size int64) (int, byte, error) {
	var pre [containerPrefix]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return 0, 0, fmt.Errorf("%w: sealed file cut short in its first %d bytes", seal.ErrCorrupt, containerPrefix)
	}
	if string(pre[:len(containerMagic)]) != containerMagic {
		return 0, 0, seal.ErrNotSealed
	}
	v := pre[len(containerMagic)]
	if v > containerVersion {
		return 0, 0, fmt.Errorf("%w: container version %d, this build reads 1 and %d", seal.ErrTooNew, v, containerVersion)
	} else if v < containerV1 {
		return 0, 0, fmt.Errorf("%w: container version %d", seal.ErrCorrupt, v)
	}
	n := binary.BigEndian.Uint32(pre[len(containerMagic)+1:])
	if n < uint32(seal.Overhead) || n > maxHeaderEnvelopeBytes || int64(n) > size-int64(containerPrefix+seal.MinStreamBytes) {
		return 0, 0, fmt.Errorf("%w: header envelope length %d in a file of %d bytes", seal.ErrCorrupt, n, size)
	}
	return int(n), v, nil
}

// openHeader reads and authenticates the header of a sealed file of size
// bytes from r, positioned at its start, and checks the file's length: in
// version 1 against body_bytes; in version 2, whose header does not know
// its body's length, only against the shortest body (seal.MinStreamBytes).
func openHeader(k seal.Key, name string, r io.Reader, size int64) (*sealedHeader, int, error) {
	n, v, err := readPrefix(r, size)
	if err == nil && k.IsZero() {
		err = ErrEncrypted
	}
	if err != nil {
		return nil, 0, err
	}
	henv := make([]byte, n)
	if _, err := io.ReadFull(r, henv); err != nil {
		return nil, 0, fmt.Errorf("%w: read header envelope: %v", seal.ErrCorrupt, err)
	}
	pt, err := seal.Open(k, headerName(name), henv)
	if err != nil {
		return nil, 0, err
	}
	h := &sealedHeader{container: v}
	if err := json.Unmarshal(pt, h); err != nil {
		return nil, 0, fmt.Errorf("%w: header: %v", seal.ErrCorrupt, err)
	}
	if want := int64(containerPrefix+n) + h.BodyBytes; v == containerV1 && want != size || len(h.BodySalt) != saltBytes ||
		v != containerV1 && h.BodyBytes != 0 {
		return nil, 0, fmt.Errorf("%w: the file has %d bytes, its header says %d", seal.ErrCorrupt, size, want)
	}
	return h, n, nil
}

// sealedHeaderAt reads the header of the sealed file p (session name).
func (s *Store) sealedHeaderAt(name, p string) (Header, error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h := Header{SizeBytes: st.Size(), Version: FormatVersion, Messages: -1, UpdatedAt: st.ModTime(), sealedNanos: st.ModTime().UnixNano()}
	sh, _, err := openHeader(s.key, name, f, st.Size())
	if err != nil {
		return h, s.containerError(name, p, err)
	}
	h.Title, h.Messages, h.CreatedAt, h.UpdatedAt = sh.Title, sh.MessageCount, sh.CreatedAt, sh.UpdatedAt
	h.Revision, h.TranscriptID, h.Version, h.Lineage = sh.Revision, sh.TranscriptID, sh.Version, sh.Lineage
	if sh.JournalPos != nil {
		h.JournalPos = *sh.JournalPos
	}
	h.skipped = true // never cached in the list index: it would hold the title in plaintext
	if h.UpdatedAt.IsZero() {
		h.UpdatedAt = st.ModTime()
	}
	return h, nil
}

// header reads the header of file p holding session name, plaintext or
// sealed.
func (s *Store) header(name, p string) (Header, error) {
	h, err := readHeader(p)
	if errors.Is(err, errSealedFile) {
		if h, ok, err := s.chatcliHeaderAt(name, p); ok {
			return h, err
		}
		return s.sealedHeaderAt(name, p)
	}
	return h, err
}

// decodeFile decodes the bytes of file p holding session name, opening
// them first when in ChatCLI's envelope.
func (s *Store) decodeFile(name, p string, data []byte) (*Session, error) {
	if seal.IsChatCLIEnvelope(data) {
		body, err := s.openChatCLI(name, p, data)
		if err != nil {
			return nil, err
		}
		data = body
	}
	sess, err := Decode(data)
	if err != nil {
		return nil, classify(p, err)
	}
	return sess, nil
}
