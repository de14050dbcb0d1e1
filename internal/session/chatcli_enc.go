// Session files ChatCLI encrypted: its envelope (seal.ChatCLIMagic) is
// opened with its own key derivation (seal.ChatCLIKeyFrom), read-only.

package session

import (
	"errors"
	"fmt"
	"io"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// SetChatCLIKey gives the store the key ChatCLI seals its session files
// with (seal.ChatCLIKeyFrom), so files in ChatCLI's envelope load, list
// and can be replaced; the zero key leaves them refused (ErrEncrypted).
// What chatcli writes is never in ChatCLI's envelope: it follows SetKey.
func (s *Store) SetChatCLIKey(k seal.ChatCLIKey) { s.chatcliKey = k }

// openChatCLI opens data, file p of session name, in ChatCLI's envelope.
// Errors name the session and file: ErrCorrupt for an envelope cut
// short (seal.CheckChatCLIEnvelope; told with or without the key),
// ErrEncrypted without the key, one wrapping seal.ErrWrongKey for a key
// that does not open it (which, unlike a wrong chatcli key, refuses
// nothing else).
func (s *Store) openChatCLI(name, p string, data []byte) ([]byte, error) {
	if err := seal.CheckChatCLIEnvelope(data); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, p, err)
	}
	if s.chatcliKey.IsZero() {
		return nil, i18n.Errorf("session %q is %w (ChatCLI's encryption, %s)", name, ErrEncrypted, p)
	}
	body, err := seal.OpenChatCLI(s.chatcliKey, data)
	switch {
	case errors.Is(err, seal.ErrWrongKey):
		return nil, fmt.Errorf("session %q: ChatCLI encrypted %s under another key (CHATCLI_ENCRYPTION_KEY, or ~/.chatcli/.auth-key when unset), or it is damaged: %w; it was not changed", name, p, err)
	case err != nil:
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, p, err)
	}
	return body, nil
}

// chatcliHeaderAt is the header of file p when it is in ChatCLI's
// envelope (ok false otherwise): such a file is opened and decoded whole;
// of any other only the first bytes are read, so that listing chatcli's
// own sealed files never reads their bodies. It never goes to the list
// index, which would hold its title in plaintext.
func (s *Store) chatcliHeaderAt(name, p string) (h Header, ok bool, err error) {
	if !startsChatCLIEnvelope(p) {
		return Header{}, false, nil
	}
	data, err := storefile.ReadFile(p)
	if err != nil || !seal.IsChatCLIEnvelope(data) {
		return Header{}, false, nil
	}
	st, err := storefile.Lstat(p) // the file just read, not what a link there names
	if err != nil {
		return Header{}, true, err
	}
	h = Header{SizeBytes: st.Size(), Version: 1, Messages: -1, UpdatedAt: st.ModTime(), skipped: true}
	sess, err := s.decodeFile(name, p, data)
	if err != nil {
		return h, true, err
	}
	h.Title, h.Messages, h.CreatedAt, h.Revision, h.Version = sess.Title, len(sess.History), sess.CreatedAt, sess.Revision, sess.SourceVersion
	if h.Title == "" {
		h.Title = DeriveTitle(sess.History)
	}
	if !sess.UpdatedAt.IsZero() {
		h.UpdatedAt = sess.UpdatedAt
	}
	return h, true, nil
}

// openChatCLIForSeal opens file p in ChatCLI's envelope for RekeyFile: the
// document it holds and the header of chatcli's container for it.
func (s *Store) openChatCLIForSeal(name, p string, data []byte) (*sealedHeader, []byte, error) {
	body, err := s.openChatCLI(name, p, data)
	if err != nil {
		return nil, nil, err
	}
	sess, err := Decode(body)
	if err != nil {
		return nil, nil, classify(p, err)
	}
	return &sealedHeader{Version: sess.SourceVersion, Title: sess.Title, CreatedAt: sess.CreatedAt, UpdatedAt: sess.UpdatedAt,
		Revision: sess.Revision, MessageCount: len(sess.History), TranscriptID: sess.TranscriptID}, body, nil
}

// startsChatCLIEnvelope reports whether file p starts with ChatCLI's
// envelope magic, reading only that many bytes.
func startsChatCLIEnvelope(p string) bool {
	f, _, err := storefile.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(seal.ChatCLIMagic))
	if _, err := io.ReadFull(f, head); err != nil {
		return false
	}
	return seal.IsChatCLIEnvelope(head)
}
