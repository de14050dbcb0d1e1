package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"
)

// ChatCLIMagic starts a session file ChatCLI encrypted
// (diillson/chatcli cli/session_encryption.go, sessionEncMagic).
const ChatCLIMagic = "CHATCLI_ENC_v1\n"

// chatcliInfo is the HKDF info of ChatCLI's session key.
const chatcliInfo = "chatcli-session-encryption"

// chatcliNonceBytes is the GCM nonce size of ChatCLI's envelope.
const chatcliNonceBytes = 12

// ChatCLIKey is the AES-256 key ChatCLI seals its session files with. The
// zero ChatCLIKey opens nothing; printing one shows no bytes.
type ChatCLIKey struct {
	b   [KeySizeBytes]byte
	set bool
}

// ChatCLIKeyFrom derives ChatCLI's session key from its secret, as
// ChatCLI's NewSessionEncryptor does: the secret is the text of
// CHATCLI_ENCRYPTION_KEY, whatever its form, or else the bytes of
// ~/.chatcli/.auth-key; master = SHA-256(secret), key = HKDF-SHA256(secret
// = master, no salt, info = "chatcli-session-encryption", L = 32)
// (RFC 5869). An empty secret gives the zero ChatCLIKey.
func ChatCLIKeyFrom(secret []byte) ChatCLIKey {
	if len(secret) == 0 {
		return ChatCLIKey{}
	}
	master := sha256.Sum256(secret)
	defer clear(master[:])
	raw, err := hkdf.Key(sha256.New, master[:], nil, chatcliInfo, KeySizeBytes)
	if err != nil { // only for lengths past 255 hashes
		return ChatCLIKey{}
	}
	defer clear(raw)
	var k ChatCLIKey
	copy(k.b[:], raw)
	k.set = true
	return k
}

// IsZero reports whether k is the zero ChatCLIKey.
func (k ChatCLIKey) IsZero() bool { return !k.set }

// Format implements fmt.Formatter: no verb prints the key bytes.
func (k ChatCLIKey) Format(f fmt.State, verb rune) { fmt.Fprint(f, "seal.ChatCLIKey(redacted)") }

// IsChatCLIEnvelope reports whether data starts with ChatCLIMagic.
func IsChatCLIEnvelope(data []byte) bool { return bytes.HasPrefix(data, []byte(ChatCLIMagic)) }

// chatcliTagBytes is the GCM tag size of ChatCLI's envelope.
const chatcliTagBytes = 16

// ChatCLIEnvelopeMinBytes is the length of the shortest whole envelope:
// ChatCLIMagic, the 12-byte nonce, the smallest document ChatCLI seals (a
// JSON object, "{}", 2 bytes) and the 16-byte GCM tag.
const ChatCLIEnvelopeMinBytes = len(ChatCLIMagic) + chatcliNonceBytes + 2 + chatcliTagBytes

// CheckChatCLIEnvelope checks data, which starts with ChatCLIMagic, for
// what needs no key: an envelope shorter than ChatCLIEnvelopeMinBytes was
// cut short (ErrCorrupt, with its length). A cut that leaves more passes:
// the envelope records no length (ChatCLI's SessionEncryptor.Encrypt
// writes magic, nonce and GCM output alone), so only the key tells it.
func CheckChatCLIEnvelope(data []byte) error {
	if len(data) < ChatCLIEnvelopeMinBytes {
		return fmt.Errorf("%w: ChatCLI envelope of %d bytes, shorter than its header, nonce, tag and the smallest document (%d bytes): cut short",
			ErrCorrupt, len(data), ChatCLIEnvelopeMinBytes)
	}
	return nil
}

// OpenChatCLI opens ChatCLI's envelope: ChatCLIMagic, a 12-byte nonce,
// then AES-256-GCM of the file (tag last, no associated data) under k.
// Errors: the zero key (ErrBadKey), no magic (ErrNotSealed), too short
// for a nonce, a tag and a document (ErrCorrupt, CheckChatCLIEnvelope),
// a wrong key or a changed byte (ErrWrongKey).
func OpenChatCLI(k ChatCLIKey, data []byte) ([]byte, error) {
	if k.IsZero() {
		return nil, fmt.Errorf("%w: no key for ChatCLI's envelope", ErrBadKey)
	}
	if !IsChatCLIEnvelope(data) {
		return nil, fmt.Errorf("%w: no %q header", ErrNotSealed, ChatCLIMagic[:len(ChatCLIMagic)-1])
	}
	gcm, err := chatcliGCM(k)
	if err != nil {
		return nil, err
	}
	if err := CheckChatCLIEnvelope(data); err != nil {
		return nil, err
	}
	rest := data[len(ChatCLIMagic):]
	pt, err := gcm.Open(nil, rest[:chatcliNonceBytes], rest[chatcliNonceBytes:], nil)
	if err != nil {
		return nil, fmt.Errorf("%w (ChatCLI's envelope)", ErrWrongKey)
	}
	return pt, nil
}

func chatcliGCM(k ChatCLIKey) (cipher.AEAD, error) {
	block, err := aes.NewCipher(k.b[:])
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
