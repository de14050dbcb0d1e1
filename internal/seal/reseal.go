package seal

import "errors"

// Reseal returns data sealed for name under nw, for rekeying a file that
// is one envelope (or plaintext to be sealed): an envelope that opens with
// nw is returned as it is (changed false); one that opens with old is
// sealed again under nw; plaintext (no magic) is sealed as it is. Errors
// are Open's with old (ErrWrongKey when neither key opens it) and
// ErrBadKey when nw is the zero Key.
func Reseal(data []byte, name string, old, nw Key) (out []byte, changed bool, err error) {
	if nw.IsZero() {
		return nil, false, errZeroKey
	}
	plain := data
	if IsSealed(data) {
		if _, err := Open(nw, name, data); err == nil || !errors.Is(err, ErrWrongKey) {
			return data, false, err
		}
		if old.IsZero() {
			return nil, false, ErrWrongKey
		}
		if plain, err = Open(old, name, data); err != nil {
			return nil, false, err
		}
	}
	out, err = Seal(nw, name, plain)
	return out, err == nil, err
}
