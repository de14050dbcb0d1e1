package config

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/storefile"
)

// KeySaltFileName is the file under $CHATCLI_HOME that keeps the salt and
// Argon2id parameters of a passphrase key (see keySalt).
const KeySaltFileName = "key-salt.json"

// newKDF are the parameters a new salt file records (a seam: tests use
// cheap ones).
var newKDF = seal.DefaultKDF

// keySalt is the salt file of a store whose CHATCLI_ENCRYPTION_KEY is a
// passphrase:
//
//	{"version":1,"kdf":"argon2id","salt":"<base64 of 16 random bytes>",
//	 "time":3,"memory_kib":65536,"threads":4}
//
// It is created once, with the first use of a passphrase, exclusively
// (atomicfile.CreateFile: two processes starting together end with one
// salt) and durably; it is never rewritten, since every file sealed
// under the passphrase depends on it. Losing it loses those files, like
// losing the passphrase. It holds nothing secret.
type keySalt struct {
	Version int    `json:"version"`
	KDF     string `json:"kdf"`
	Salt    []byte `json:"salt"`
	seal.KDFParams
}

// passphraseKey derives the key of passphrase v for the store at home,
// reading its salt file or creating it. Errors wrap ErrConfig and name
// the salt file: it cannot be read or created, or it is damaged (then it
// is left as it is).
func passphraseKey(home, name, v string) (seal.Key, error) {
	s, err := readKeySalt(home)
	if err != nil {
		return seal.Key{}, err
	}
	k, err := seal.PassphraseKey(v, s.Salt, s.KDFParams)
	if err != nil {
		return seal.Key{}, &keyError{name: name, err: err}
	}
	return k, nil
}

// readKeySalt reads home's salt file, creating it when there is none.
func readKeySalt(home string) (keySalt, error) {
	p := filepath.Join(home, KeySaltFileName)
	for range 2 {
		data, err := storefile.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			if err := createKeySalt(home, p); err != nil && !errors.Is(err, fs.ErrExist) {
				return keySalt{}, fmt.Errorf("%w: passphrase salt %s not written: %v", ErrConfig, p, err)
			}
			continue // written here or by another process: read it
		}
		if err != nil {
			return keySalt{}, fmt.Errorf("%w: passphrase salt: %v", ErrConfig, err)
		}
		var s keySalt
		if err := json.Unmarshal(data, &s); err != nil || s.Version != 1 || s.KDF != "argon2id" || len(s.Salt) < seal.PassphraseSaltBytes {
			return keySalt{}, fmt.Errorf("%w: passphrase salt %s is damaged (the files sealed under the passphrase need it; restore it from a backup)", ErrConfig, p)
		}
		return s, nil
	}
	return keySalt{}, fmt.Errorf("%w: passphrase salt %s vanished while being read", ErrConfig, p)
}

// createKeySalt writes a new salt file at p, only when there is none
// (fs.ErrExist otherwise).
func createKeySalt(home, p string) error {
	s := keySalt{Version: 1, KDF: "argon2id", Salt: make([]byte, seal.PassphraseSaltBytes), KDFParams: newKDF}
	if _, err := rand.Read(s.Salt); err != nil {
		return err
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	err = atomicfile.CreateFile(p, append(data, '\n'))
	if errors.Is(err, atomicfile.ErrNotDurable) {
		return nil // written; its folder's fsync failed
	}
	return err
}
