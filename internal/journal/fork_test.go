package journal

import (
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// Lines appended while Fork copies without the lock are copied under it,
// and a source replaced meanwhile (rekeyed: every line sealed) is copied
// again whole from the file the path names now.
func TestForkTakesInWhatCameDuringTheCopy(t *testing.T) {
	for _, c := range []struct {
		name    string
		during  func(t *testing.T, j *Journal, h []message.Message)
		wantKey bool
	}{
		{"appended", func(t *testing.T, j *Journal, h []message.Message) {
			sync1(t, j, append(h, msg("user", "meanwhile")), 1)
		}, false},
		{"rekeyed", func(t *testing.T, j *Journal, h []message.Message) {
			if _, _, err := Rekey(j.Path(), noKey, testKey(t, 1)); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			j := open(t, dir, NewID())
			h := []message.Message{msg("user", "a"), msg("assistant", "b")}
			sync1(t, j, h, 2)
			afterUnlockedCopy = func() { c.during(t, j, h) }
			t.Cleanup(func() { afterUnlockedCopy = func() {} })
			key := noKey
			if c.wantKey {
				key = testKey(t, 1)
			}
			id, dropped, err := Fork(dir, j.ID(), key)
			if err != nil || len(dropped) != 0 {
				t.Fatalf("Fork: %v, dropped %v", err, dropped)
			}
			_, msgs, _, err := Messages(Path(dir, id), key)
			want := 2
			if c.name == "appended" {
				want = 3
			}
			if err != nil || len(msgs) != want {
				t.Fatalf("the fork holds %d messages (%v), want %d", len(msgs), err, want)
			}
		})
	}
}
