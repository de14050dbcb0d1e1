package seal

import "errors"

// Sentinel errors, matched with errors.Is. Returned errors wrap one of them
// and may add detail (a length, a version), never key material.
var (
	// ErrBadKey: the master key cannot be used (not base64, not 32 bytes,
	// all zero, or a zero Key that did not come from ParseKey).
	ErrBadKey = errors.New("seal: bad key")
	// ErrNotSealed: the data does not start with the envelope magic (or the
	// line prefix): it is plaintext.
	ErrNotSealed = errors.New("seal: not sealed")
	// ErrTooNew: the envelope has a version later than this build reads.
	ErrTooNew = errors.New("seal: envelope version too new")
	// ErrCorrupt: the data has the magic but cannot be an envelope: too
	// short, an unknown old version, or a malformed sealed line.
	ErrCorrupt = errors.New("seal: corrupt envelope")
	// ErrWrongKey: authentication failed. The key is wrong, a byte was
	// changed, or the envelope was sealed for another name; AES-GCM cannot
	// tell these apart.
	ErrWrongKey = errors.New("seal: wrong key or tampered data")
)
