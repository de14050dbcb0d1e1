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
	containerMagic   = "\x89CSS\r\n\x1a\n" // chatcli sealed session
	containerVersion = 1
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
	BodySalt     []byte       `json:"body_salt"`  // bytes 9..40 of the body envelope
	BodyBytes    int64        `json:"body_bytes"` // length of the body envelope
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

// sealContainer builds the sealed file of session name from its header
// values and body (a whole session document, any version Decode reads).
func sealContainer(k seal.Key, name string, h sealedHeader, body []byte) ([]byte, error) {
	// The header's length is known before the body is sealed (body_salt
	// is 32 bytes whatever they are), so the body is sealed straight into
	// the file's buffer and the header sealed in front of it afterwards.
	h.BodySalt, h.BodyBytes = make([]byte, saltBytes), int64(len(body)+seal.Overhead)
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	bodyAt := containerPrefix + len(hj) + seal.Overhead
	out := make([]byte, bodyAt, bodyAt+len(body)+seal.Overhead)
	if out, err = seal.AppendSeal(out, k, bodyName(name), body); err != nil {
		return nil, err
	}
	h.BodySalt = out[bodyAt+saltOffset : bodyAt+saltOffset+saltBytes]
	if hj, err = json.Marshal(h); err != nil {
		return nil, err
	}
	if containerPrefix+len(hj)+seal.Overhead != bodyAt {
		return nil, fmt.Errorf("session: sealed header of %q changed length", name) // cannot happen: base64 of 32 bytes
	}
	head := append(out[:0:bodyAt], containerMagic...)
	head = append(head, containerVersion)
	head = binary.BigEndian.AppendUint32(head, uint32(len(hj)+seal.Overhead))
	if _, err := seal.AppendSeal(head, k, headerName(name), hj); err != nil {
		return nil, err
	}
	return out, nil
}

// headerOf gives the header values of sess as Save records them.
func headerOf(sess *Session) sealedHeader {
	h := sealedHeader{Version: FormatVersion, Title: sess.Title, CreatedAt: sess.CreatedAt, UpdatedAt: sess.UpdatedAt,
		Revision: sess.Revision, MessageCount: len(sess.History), TranscriptID: sess.TranscriptID, Lineage: sess.Lineage}
	if sess.JournalPos.Seq > 0 && sess.TranscriptID != "" {
		pos := sess.JournalPos
		h.JournalPos = &pos
	}
	return h
}

// containerError describes a sealed file that cannot be opened.
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
	}
	return fmt.Errorf("%w: %s: %v", ErrCorrupt, p, err)
}

// readPrefix reads the fixed prefix and returns the header envelope length.
func readPrefix(r io.Reader, size int64) (int, error) {
	var pre [containerPrefix]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return 0, fmt.Errorf("%w: sealed file cut short in its first %d bytes", seal.ErrCorrupt, containerPrefix)
	}
	if string(pre[:len(containerMagic)]) != containerMagic {
		return 0, seal.ErrNotSealed
	}
	if v := pre[len(containerMagic)]; v != containerVersion {
		if v > containerVersion {
			return 0, fmt.Errorf("%w: container version %d, this build reads %d", seal.ErrTooNew, v, containerVersion)
		}
		return 0, fmt.Errorf("%w: container version %d", seal.ErrCorrupt, v)
	}
	n := binary.BigEndian.Uint32(pre[len(containerMagic)+1:])
	if n < uint32(seal.Overhead) || n > maxHeaderEnvelopeBytes || int64(n) > size-int64(containerPrefix+seal.Overhead) {
		return 0, fmt.Errorf("%w: header envelope length %d in a file of %d bytes", seal.ErrCorrupt, n, size)
	}
	return int(n), nil
}

// openHeader reads and authenticates the header of a sealed file of size
// bytes from r, positioned at its start, and checks the file's length.
func openHeader(k seal.Key, name string, r io.Reader, size int64) (sealedHeader, int, error) {
	var h sealedHeader
	n, err := readPrefix(r, size)
	if err != nil {
		return h, 0, err
	}
	if k.IsZero() {
		return h, 0, ErrEncrypted
	}
	henv := make([]byte, n)
	if _, err := io.ReadFull(r, henv); err != nil {
		return h, 0, fmt.Errorf("%w: read header envelope: %v", seal.ErrCorrupt, err)
	}
	pt, err := seal.Open(k, headerName(name), henv)
	if err != nil {
		return h, 0, err
	}
	if err := json.Unmarshal(pt, &h); err != nil {
		return h, 0, fmt.Errorf("%w: header: %v", seal.ErrCorrupt, err)
	}
	if want := int64(containerPrefix+n) + h.BodyBytes; want != size || len(h.BodySalt) != saltBytes {
		return h, 0, fmt.Errorf("%w: the file has %d bytes, its header says %d", seal.ErrCorrupt, size, want)
	}
	return h, n, nil
}

// openContainer authenticates a whole sealed file and returns its header
// and body (the session document).
func openContainer(k seal.Key, name string, data []byte) (sealedHeader, []byte, error) {
	return openContainerWith(seal.Open, k, name, data)
}

// openContainerInPlace is openContainer decrypting the body inside data
// (seal.OpenInPlace): data is overwritten, on failure too, and must not be
// used again. Load and the check before an overwrite use it, since they
// read the file for this one purpose.
func openContainerInPlace(k seal.Key, name string, data []byte) (sealedHeader, []byte, error) {
	return openContainerWith(seal.OpenInPlace, k, name, data)
}

// openContainerWith is openContainer with the body opened by open.
func openContainerWith(open func(seal.Key, string, []byte) ([]byte, error), k seal.Key, name string, data []byte) (sealedHeader, []byte, error) {
	h, n, err := openHeader(k, name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return h, nil, err
	}
	benv := data[containerPrefix+n:]
	if len(benv) < saltOffset+saltBytes || !bytes.Equal(benv[saltOffset:saltOffset+saltBytes], h.BodySalt) {
		return h, nil, fmt.Errorf("%w: the body does not belong to this header", seal.ErrWrongKey)
	}
	body, err := open(k, bodyName(name), benv)
	return h, body, err
}

// sealedHeaderAt reads the header of the sealed file p (session name).
func (s *Store) sealedHeaderAt(name, p string) (Header, error) {
	f, st, err := storefile.Open(p)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	h := Header{SizeBytes: st.Size(), Version: FormatVersion, Messages: -1, UpdatedAt: st.ModTime()}
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
// them first when sealed.
func (s *Store) decodeFile(name, p string, data []byte) (*Session, error) {
	if seal.IsChatCLIEnvelope(data) {
		body, err := s.openChatCLI(name, p, data)
		if err != nil {
			return nil, err
		}
		data = body
	} else if IsSealedFile(data) {
		_, body, err := openContainerInPlace(s.key, name, data)
		if err != nil {
			return nil, s.containerError(name, p, err)
		}
		data = body
	}
	sess, err := Decode(data)
	if err != nil {
		return nil, classify(p, err)
	}
	return sess, nil
}

// checkSealed is checkOverwrite for a sealed file: it must open with the
// store's key. Its body is not parsed again: an authentic body is one this
// program sealed, always a whole document (Encode's output, or a plaintext
// file that passed checkDocument when it was rekeyed).
func (s *Store) checkSealed(p string, data []byte) error {
	name := nameOf(p)
	if seal.IsChatCLIEnvelope(data) {
		_, err := s.openChatCLI(name, p, data)
		return err
	}
	if _, _, err := openContainerInPlace(s.key, name, data); err != nil {
		return s.containerError(name, p, err)
	}
	return nil
}

// sealFor seals the encoded document data of sess for file p when the
// store has a key; without one it returns data unchanged. A refused key
// (KeyRefusal) seals nothing: the error wraps ErrKeyRefused.
func (s *Store) sealFor(p string, sess *Session, data []byte) ([]byte, error) {
	if s.key.IsZero() {
		return data, nil
	}
	if err := s.KeyRefusal(); err != nil {
		return nil, err
	}
	out, err := sealContainer(s.key, nameOf(p), headerOf(sess), data)
	if err != nil {
		return nil, fmt.Errorf("session: seal %s: %w", p, err)
	}
	return out, nil
}
