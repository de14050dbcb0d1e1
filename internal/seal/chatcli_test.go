package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"io"
	"testing"

	"golang.org/x/crypto/hkdf"
)

// chatcliEncrypt is ChatCLI's SessionEncryptor.Encrypt with
// NewSessionEncryptor's key, step by step as diillson/chatcli
// cli/session_encryption.go does it (x/crypto's hkdf, as ChatCLI uses).
func chatcliEncrypt(t *testing.T, envKey string, plaintext []byte) []byte {
	t.Helper()
	master := sha256.Sum256([]byte(envKey))
	key := make([]byte, 32)
	if _, err := io.ReadFull(hkdf.New(sha256.New, master[:], nil, []byte("chatcli-session-encryption")), key); err != nil {
		t.Fatal(err)
	}
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	nonce := make([]byte, gcm.NonceSize())
	rand.Read(nonce)
	out := append([]byte("CHATCLI_ENC_v1\n"), nonce...)
	return append(out, gcm.Seal(nil, nonce, plaintext, nil)...)
}

func TestOpenChatCLI(t *testing.T) {
	doc := []byte(`{"version":2,"chat_history":[{"role":"user","content":"oi"}]}`)
	for _, secret := range []string{"minha senha secreta", "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="} {
		env := chatcliEncrypt(t, secret, doc)
		if !IsChatCLIEnvelope(env) {
			t.Fatal("magic not recognised")
		}
		got, err := OpenChatCLI(ChatCLIKeyFrom([]byte(secret)), env)
		if err != nil || string(got) != string(doc) {
			t.Fatalf("%q: %v %q", secret, err, got)
		}
		if _, err := OpenChatCLI(ChatCLIKeyFrom([]byte(secret+"x")), env); !errors.Is(err, ErrWrongKey) {
			t.Errorf("another secret: %v", err)
		}
		env[len(env)-1] ^= 1
		if _, err := OpenChatCLI(ChatCLIKeyFrom([]byte(secret)), env); !errors.Is(err, ErrWrongKey) {
			t.Errorf("a changed byte: %v", err)
		}
	}
	if _, err := OpenChatCLI(ChatCLIKeyFrom([]byte("k")), []byte("CHATCLI_ENC_v1\nshort")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("short: %v", err)
	}
	if _, err := OpenChatCLI(ChatCLIKey{}, chatcliEncrypt(t, "k", doc)); !errors.Is(err, ErrBadKey) {
		t.Errorf("zero key: %v", err)
	}
	if _, err := OpenChatCLI(ChatCLIKeyFrom([]byte("k")), doc); !errors.Is(err, ErrNotSealed) {
		t.Errorf("plaintext: %v", err)
	}
}

// Without the key, an envelope ChatCLI wrote is told cut short when what
// is left is shorter than its header, nonce, tag and the smallest
// document; the shortest whole envelope ChatCLI writes ("{}") passes.
func TestCheckChatCLIEnvelope(t *testing.T) {
	whole := chatcliEncrypt(t, "k", []byte("{}"))
	if len(whole) != ChatCLIEnvelopeMinBytes || CheckChatCLIEnvelope(whole) != nil {
		t.Fatalf("the shortest whole envelope (%d bytes): %v", len(whole), CheckChatCLIEnvelope(whole))
	}
	for n := len(ChatCLIMagic); n < len(whole); n++ {
		if err := CheckChatCLIEnvelope(whole[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut to %d bytes: %v", n, err)
		}
	}
}
