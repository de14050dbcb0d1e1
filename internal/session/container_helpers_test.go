package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"

	"github.com/chatcli/chatcli/internal/seal"
)

// sealContainer returns the sealed file (container version 2) of session
// name with header h and document body, as Save writes it.
func sealContainer(k seal.Key, name string, h sealedHeader, body []byte) ([]byte, error) {
	var out bytes.Buffer
	err := writeContainer(&out, k, name, &h, bytes.NewReader(body), nil)
	return out.Bytes(), err
}

// sealContainerV1 returns the sealed file of session name as builds before
// container version 2 wrote it: the body one seal envelope, its length in
// the header.
func sealContainerV1(k seal.Key, name string, h sealedHeader, body []byte) ([]byte, error) {
	benv, err := seal.Seal(k, bodyName(name), body)
	if err != nil {
		return nil, err
	}
	h.BodySalt, h.BodyBytes = benv[saltOffset:saltOffset+saltBytes], int64(len(benv))
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	henv, err := seal.Seal(k, headerName(name), hj)
	if err != nil {
		return nil, err
	}
	out := append([]byte(containerMagic), containerV1)
	out = binary.BigEndian.AppendUint32(out, uint32(len(henv)))
	return append(append(out, henv...), benv...), nil
}

// openContainer authenticates a whole sealed file of either version and
// returns its header and body.
func openContainer(k seal.Key, name string, data []byte) (sealedHeader, []byte, error) {
	h, r, err := openBody(k, name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return sealedHeader{}, nil, err
	}
	body, err := io.ReadAll(r)
	return *h, body, err
}
