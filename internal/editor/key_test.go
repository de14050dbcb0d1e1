package editor

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReadKeyTakesOneKeyWithoutEnter(t *testing.T) {
	for _, c := range []struct {
		input, want string
		err         error
	}{
		{"xA", "a", nil}, // x is ignored; A counts as a
		{"y", "y", nil},  // no Enter needed
		{"\r", "", nil},  // Enter: the default
		{"\x03", "", ErrInterrupt},
	} {
		interactive(t)
		var out bytes.Buffer
		e, err := New(Config{In: heldOpen(t, c.input), Out: &out})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		got, err := e.ReadKey(ctx, "Allow? [y]es / [n]o / [a]lways ", []string{"y", "n", "a"})
		cancel()
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("%q: got %q, %v; want %q, %v", c.input, got, err, c.want, c.err)
		}
		if !strings.Contains(out.String(), "Allow?") {
			t.Errorf("%q: the question was not shown: %q", c.input, out.String())
		}
	}
}
