// The body of a sealed session file, written and read as a stream
// (container version 2; layout in doc.go, "Encryption at rest").

package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
)

// writeContainer writes the sealed file (container version 2) of session
// name to w: the prefix and the header envelope of h, bound to the body by
// its salt, then the body, a seal stream of the document copied from doc
// (nil: the document of sess, EncodeTo). Memory is one segment of the
// stream whatever the document's length; h's body_salt is set. Errors: w's, doc's, EncodeTo's,
// or the seal's (a failed random source).
func writeContainer(w io.Writer, k seal.Key, name string, h *sealedHeader, doc io.Reader, sess *Session) error {
	sw, err := seal.NewWriter(w, k, bodyName(name))
	if err != nil {
		return err
	}
	h.BodySalt, h.BodyBytes = sw.Salt(), 0
	hj, _ := json.Marshal(h) // strings, times and integers always encode
	henv, err := seal.Seal(k, headerName(name), hj)
	if err == nil {
		out := append([]byte(containerMagic), containerVersion)
		out = binary.BigEndian.AppendUint32(out, uint32(len(henv)))
		_, err = w.Write(append(out, henv...))
	}
	if err == nil && doc != nil {
		_, err = io.Copy(sw, doc)
	} else if err == nil {
		err = EncodeTo(sw, sess)
	}
	if err != nil {
		return err
	}
	return sw.Close()
}

// openBody reads the header of the sealed file f and returns it with a
// reader of its body, the session document. A version-1 body is one
// envelope, read whole and opened; a version-2 body is a seal stream,
// whose Reader returns only authenticated bytes, and its errors, as it
// goes, and io.EOF only once the whole body authenticated: a caller that
// stops before io.EOF has not checked the rest. Errors: openHeader's,
// f's; a body whose salt is not the header's wraps seal.ErrWrongKey.
func openBody(k seal.Key, name string, f io.ReaderAt, size int64) (*sealedHeader, io.Reader, error) {
	r := io.NewSectionReader(f, 0, size)
	h, n, err := openHeader(k, name, r, size)
	if err != nil {
		return h, nil, err
	}
	if h.container != containerV1 {
		sr, err := seal.NewReader(r, k, bodyName(name))
		if err == nil && !bytes.Equal(sr.Salt(), h.BodySalt) {
			err = errForeignBody
		}
		return h, sr, err
	}
	benv := make([]byte, size-int64(containerPrefix+n)) // at least MinStreamBytes (readPrefix)
	if _, err = io.ReadFull(r, benv); err == nil && !bytes.Equal(benv[saltOffset:saltOffset+saltBytes], h.BodySalt) {
		err = errForeignBody
	}
	if err == nil {
		benv, err = seal.OpenInPlace(k, bodyName(name), benv)
	}
	return h, bytes.NewReader(benv), err
}

var errForeignBody = fmt.Errorf("%w: the body does not belong to this header", seal.ErrWrongKey)

// checkBody opens the sealed file f (openBody) and reads its body to the
// end, so that all of it is authenticated.
func checkBody(k seal.Key, name string, f io.ReaderAt, size int64) error {
	_, body, err := openBody(k, name, f, size)
	if err == nil {
		_, err = io.Copy(io.Discard, body)
	}
	return err
}

// decodeSealed decodes the sealed file f of size bytes at p (session
// name), its body as it streams (DecodeReader), then reads the body to its
// end. Errors: the container errors (containerError), or the document's
// as Load classifies them.
func (s *Store) decodeSealed(name, p string, f io.ReaderAt, size int64) (*Session, error) {
	_, body, err := openBody(s.key, name, f, size)
	var sess *Session
	if err == nil {
		sess, err = DecodeReader(body)
	}
	if err == nil {
		_, err = io.Copy(io.Discard, body)
	}
	if cerr := s.containerError(name, p, err); cerr != err {
		return nil, cerr
	} else if err != nil {
		return nil, classifyRead(p, err)
	}
	return sess, nil
}

// sealedAt reports whether the open file f starts with the container magic.
func sealedAt(f *os.File) bool {
	magic := make([]byte, len(containerMagic))
	_, err := f.ReadAt(magic, 0)
	return err == nil && IsSealedFile(magic)
}

// checkSealed is checkOverwrite for the sealed file f at p: it must open
// with the store's key, body and all, read as a stream. Its body is not
// parsed: an authentic body is one this program sealed, always a whole
// document (Encode's output, or a plaintext file that passed
// checkDocument when it was rekeyed).
func (s *Store) checkSealed(p string, f *os.File, st fs.FileInfo) error {
	name := nameOf(p)
	if sealedAt(f) {
		return s.containerError(name, p, checkBody(s.key, name, f, st.Size()))
	}
	data, err := readFrom(f)
	if err == nil {
		_, err = s.openChatCLI(name, p, data)
	}
	return err
}

// placedBody reads the first block of the document in body and returns
// the journal position placed in the rekeyed or decrypted journal
// (placeJournalPos) with the document, that block changed to say it.
func (s *Store) placedBody(h *sealedHeader, body io.Reader) (*journal.Pos, io.Reader, error) {
	head := make([]byte, headerBufBytes)
	n, err := io.ReadFull(body, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, nil, err
	}
	pos, placed := s.placeJournalPos(h.TranscriptID, h.JournalPos, head[:n])
	return pos, io.MultiReader(bytes.NewReader(placed), body), nil
}
