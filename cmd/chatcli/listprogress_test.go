package main

import (
	"bytes"
	"testing"

	"github.com/chatcli/chatcli/internal/i18n"
)

// The listing's progress line is shown on a terminal's stderr only, in
// English (numbers as fmt prints them) or Portuguese (grouped as
// Portuguese groups them), and cleared at the end.
func TestListProgressLine(t *testing.T) {
	var errb bytes.Buffer
	if fn := listProgress(&ioStreams{Err: &errb}, i18n.New(i18n.English)); fn != nil {
		t.Fatal("a progress line off a terminal")
	}
	for _, c := range []struct {
		lang *i18n.Printer
		want string
	}{
		{i18n.New(i18n.English), "\rchecking 2000 sessions once (written by an earlier version)… 340/2000\033[K\r\033[K"},
		{i18n.New(i18n.Portuguese), "\rverificando 2.000 sessões uma única vez (gravadas por uma versão anterior)… 340/2.000\033[K\r\033[K"},
	} {
		errb.Reset()
		fn := listProgress(&ioStreams{Err: &errb, ErrTTY: true}, c.lang)
		fn(340, 2000)
		fn(2000, 2000)
		if errb.String() != c.want {
			t.Errorf("got %q\nwant %q", errb.String(), c.want)
		}
	}
}
