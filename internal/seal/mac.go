package seal

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
)

// macInfo prefixes the HKDF info of a MAC key (see doc.go, "Keyed names").
const macInfo = "chatcli mac v1 "

// MAC returns HMAC-SHA256 (RFC 2104) of data under a key derived from k for
// label: HKDF-SHA256 (RFC 5869) with no salt and info "chatcli mac v1 " ||
// label. It names stored things by their content without revealing it to
// someone who lacks k (a plain hash lets anyone confirm a guessed
// content), and different labels give unrelated names. The result is 32
// bytes. Errors wrap ErrBadKey for the zero Key.
func MAC(k Key, label string, data []byte) ([]byte, error) {
	if !k.set {
		return nil, errZeroKey
	}
	macKey, err := hkdf.Key(sha256.New, k.b[:], nil, macInfo+label, sha256.Size)
	if err != nil {
		return nil, fmt.Errorf("seal: deriving the MAC key: %w", err)
	}
	defer clear(macKey)
	m := hmac.New(sha256.New, macKey)
	m.Write(data)
	return m.Sum(nil), nil
}
