package reference

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
)

// TestErrorsSpeakPortuguese: a reference that cannot be expanded reads as
// before in English and is said in Portuguese, the reference and the path
// kept.
func TestErrorsSpeakPortuguese(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bin"), []byte("a\x00b"), 0o600)
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	x := &Expander{Dir: dir}
	pt := i18n.New(i18n.Portuguese)
	for _, c := range []struct{ prompt, en, pt string }{
		{"@file", "@file needs a path", "@file precisa de um caminho"},
		{"@file bin", "@file bin: " + filepath.Join(dir, "bin") + " is not a text file",
			"@file bin: " + filepath.Join(dir, "bin") + " não é um arquivo de texto"},
		{"@file sub", "@file sub: " + filepath.Join(dir, "sub") + " is not a regular file",
			"@file sub: " + filepath.Join(dir, "sub") + " não é um arquivo comum"},
	} {
		_, _, err := x.Expand(context.Background(), c.prompt)
		if err == nil || err.Error() != c.en {
			t.Errorf("%q: %v, want %q", c.prompt, err, c.en)
			continue
		}
		if got := pt.Error(err, nil); got != c.pt {
			t.Errorf("%q in Portuguese: %q, want %q", c.prompt, got, c.pt)
		}
	}
}
