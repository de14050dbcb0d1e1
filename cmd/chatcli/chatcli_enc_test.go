package main

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/hkdf"

	"github.com/chatcli/chatcli/internal/session"
)

// chatcliSeal writes src (a file ChatCLI wrote) into dir as ChatCLI's
// SessionEncryptor would encrypt it under secret (diillson/chatcli
// cli/session_encryption.go: SHA-256 of the secret, HKDF-SHA256 with info
// "chatcli-session-encryption", AES-256-GCM, "CHATCLI_ENC_v1\n" + nonce).
func chatcliSeal(t *testing.T, secret []byte, src, dst string) {
	t.Helper()
	doc, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	master := sha256.Sum256(secret)
	key := make([]byte, 32)
	io.ReadFull(hkdf.New(sha256.New, master[:], nil, []byte("chatcli-session-encryption")), key)
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	nonce := make([]byte, 12)
	rand.Read(nonce)
	out := append(append([]byte("CHATCLI_ENC_v1\n"), nonce...), gcm.Seal(nil, nonce, doc, nil)...)
	os.MkdirAll(filepath.Dir(dst), 0o700)
	if err := os.WriteFile(dst, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Files in ChatCLI's envelope list, open, search and continue with
// ChatCLI's key derivation (from CHATCLI_ENCRYPTION_KEY, whatever its
// form, or ~/.chatcli/.auth-key), and storage decrypt writes them back as
// plaintext; without the key they are refused, untouched.
func TestE2EChatCLIEnvelope(t *testing.T) {
	home := t.TempDir()
	cheapSalt(t, home)
	pass := "senha do ChatCLI"
	file := filepath.Join(home, "sessions", "demo1.json")
	chatcliSeal(t, []byte(pass), "../../internal/session/testdata/chatcli-1.188.0/demo1.json", file)
	sealed, _ := os.ReadFile(file)
	env := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + pass}

	if out, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "", "session", "show", "demo1"); code != 4 || !strings.Contains(errOut, "ChatCLI's encryption") {
		t.Fatalf("without the key: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=other"}, "", "session", "show", "demo1"); code != 4 || !strings.Contains(errOut, "another key") {
		t.Fatalf("another key: exit %d\n%s%s", code, out, errOut)
	}
	if now, _ := os.ReadFile(file); string(now) != string(sealed) {
		t.Fatal("a refused open changed the file")
	}
	list := mustRun(t, env, "", "session", "list")
	if !strings.Contains(list, "demo1") || !strings.Contains(list, "  4  ") {
		t.Errorf("list:\n%s", list)
	}
	show := mustRun(t, env, "", "session", "show", "demo1")
	plain, _ := session.Decode(mustRead(t, "../../internal/session/testdata/chatcli-1.188.0/demo1.json"))
	if !strings.Contains(show, plain.History[0].Content) {
		t.Errorf("show:\n%s", show)
	}
	// ChatCLI's own fallback: ~/.chatcli/.auth-key when the variable is unset.
	auth := filepath.Join(home, "user")
	os.MkdirAll(filepath.Join(auth, ".chatcli"), 0o700)
	secret := []byte("0123456789abcdef0123456789abcdef")
	os.WriteFile(filepath.Join(auth, ".chatcli", ".auth-key"), secret, 0o600)
	chatcliSeal(t, secret, "../../internal/session/testdata/chatcli-1.188.0/from-mcp.json", filepath.Join(home, "sessions", "from-mcp.json"))
	if out, errOut, code := runAt(t, "", []string{"HOME=" + auth, "CHATCLI_HOME=" + home}, "", "session", "show", "from-mcp"); code != 0 {
		t.Errorf("with ~/.chatcli/.auth-key: exit %d\n%s%s", code, out, errOut)
	}
	// Continued, it is saved in chatcli's own sealed container.
	mustRun(t, env, "", "-p", "one more", "--session", "demo1")
	if data, _ := os.ReadFile(file); !session.IsSealedFile(data) {
		t.Errorf("continued file is not chatcli's container: %q", data[:16])
	}
	// storage rekey seals a ChatCLI file under chatcli's key (CHATCLI_ENCRYPTION_KEY's
	// passphrase through Argon2id, the old key ChatCLI's derivation of the same text).
	chatcliSeal(t, []byte(pass), "../../internal/session/testdata/chatcli-1.188.0/rewound.json", filepath.Join(home, "sessions", "rewound.json"))
	if out, errOut, code := run(t, env, "", "storage", "rekey"); !strings.Contains(errOut, "rewound.json: sealed under the new key") {
		t.Errorf("rekey: exit %d\n%s%s", code, out, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(home, "sessions", "rewound.json")); !session.IsSealedFile(data) {
		t.Error("rekey left ChatCLI's envelope")
	}
	mustRun(t, env, "", "session", "show", "rewound")
	chatcliSeal(t, []byte(pass), "../../internal/session/testdata/chatcli-1.188.0/compactme.json", filepath.Join(home, "sessions", "compactme.json"))
	// from-mcp is under the .auth-key's key, which this run lacks: it alone fails, untouched.
	if out, errOut, code := run(t, env, "", "storage", "decrypt", "--yes"); code != 4 || !strings.Contains(out, "1 failed") || !strings.Contains(errOut, "from-mcp.json") {
		t.Errorf("decrypt: exit %d\n%s%s", code, out, errOut)
	}
	if data, _ := os.ReadFile(filepath.Join(home, "sessions", "compactme.json")); string(data) != string(mustRead(t, "../../internal/session/testdata/chatcli-1.188.0/compactme.json")) {
		t.Error("decrypt did not give back ChatCLI's document byte for byte")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
