package session

import (
	"errors"
	"strings"
	"testing"
)

// A name within 128 characters but over the file system's 255 bytes once
// chatcli's longest suffix is added is refused by validation, saying the
// rule, before anything is written; the longest name allowed survives
// every file chatcli makes from it (107 x "é": 214 bytes).
func TestNameBytesAreValidatedUpFront(t *testing.T) {
	st := newStore(t)
	for _, name := range []string{strings.Repeat("é", 118), strings.Repeat("語", 79), strings.Repeat("é", 108)} {
		_, err := NormalizeName(name)
		if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), "bytes in UTF-8") || !strings.Contains(err.Error(), NameRule) {
			t.Errorf("NormalizeName(%d x %q) = %v, want ErrInvalidName saying the byte rule", len([]rune(name)), []rune(name)[0], err)
		}
		if err := st.Save(name, sample()); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Save of a %d-byte name = %v, want ErrInvalidName", len(name), err)
		}
	}
	for _, name := range []string{strings.Repeat("é", 107), strings.Repeat("a", 128)} {
		if err := st.Save(name, sample()); err != nil {
			t.Fatalf("Save of a %d-byte name: %v", len(name), err)
		}
		if _, err := st.TrashCopy(name); err != nil {
			t.Errorf("TrashCopy of a %d-byte name: %v", len(name), err)
		}
		if _, err := st.Trash(name); err != nil {
			t.Errorf("Trash of a %d-byte name: %v", len(name), err)
		}
		if err := st.Restore(name); err != nil {
			t.Errorf("Restore of a %d-byte name: %v", len(name), err)
		}
	}
}
