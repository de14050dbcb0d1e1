package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
)

// The header listing needs is the first bytes of every file chatcli
// writes, whatever the size of the members around the messages: a
// session with large checkpoints, attachments and unknown members still
// has chat_history inside the first block, and List reads its header
// without reading (or decoding) the rest.
func TestHeaderComesFirstWhateverTheOtherMembers(t *testing.T) {
	s := newStore(t)
	sess := sample()
	big := `[` + strings.Repeat(`{"prompt":"p","hashes":["`+strings.Repeat("a", 32)+`"]},`, 2000) + `{}]`
	sess.Checkpoints = json.RawMessage(big)
	sess.Attachments = json.RawMessage(big)
	sess.Extra["zz_big"] = json.RawMessage(big)
	if err := s.Save("big", sess); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("big")
	data, _ := os.ReadFile(p)
	if i := bytes.Index(data, chatHistoryKey); i < 0 || i > 512 {
		t.Fatalf("chat_history starts at byte %d of %d, want within the first 512", i, len(data))
	}
	if !bytes.HasSuffix(data, []byte("]}\n")) {
		t.Fatalf("the file does not end with ]}: %q", data[len(data)-20:])
	}
	h, err := s.Stat("big")
	if err != nil || !h.fast || h.Messages != len(sess.History) {
		t.Fatalf("Stat: %+v %v; want the fast header read", h, err)
	}
	back, err := s.Load("big")
	if err != nil || string(back.Checkpoints) != big || string(back.Extra["zz_big"]) != big {
		t.Fatalf("load: %v", err)
	}
}

// A file in the new layout cut anywhere after its header is listed as
// unreadable; one whose last member is no array (a hand edit) is listed
// with its messages counted, not called damaged.
func TestTailOfTheNewLayout(t *testing.T) {
	s := newStore(t)
	sess := sample()
	if err := s.Save("x", sess); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path("x")
	good, _ := os.ReadFile(p)
	start := bytes.Index(good, chatHistoryKey) + len(chatHistoryKey)
	for cut := start; cut < len(good)-3; cut += 7 {
		name := fmt.Sprintf("cut%04d", cut)
		np, _ := s.Path(name)
		os.WriteFile(np, good[:cut], 0o600)
		if h, err := s.Stat(name); err == nil {
			t.Fatalf("cut at byte %d of %d: listed as readable (%+v)", cut, len(good), h)
		}
		os.Remove(np)
	}
	edited := bytes.Replace(good, []byte(`"shared_memory":[]}`), []byte(`"shared_memory":[],"note":"x"}`), 1)
	os.WriteFile(p, edited, 0o600)
	h, err := s.Stat("x")
	if err != nil || h.Messages != len(sess.History) {
		t.Fatalf("a file ending in another member: %+v %v", h, err)
	}
	if _, err := s.Load("x"); err != nil {
		t.Fatal(err)
	}
	_ = message.RoleUser
}
