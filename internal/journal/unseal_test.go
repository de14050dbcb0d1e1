package journal

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/seal"
)

// Decrypt writes a sealed journal back as plaintext; a sealed line that
// does not open is left out, the whole file kept as .broken first; the
// wrong key changes nothing.
func TestDecrypt(t *testing.T) {
	dir := t.TempDir()
	key, err := seal.ParseKey("AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=")
	if err != nil {
		t.Fatal(err)
	}
	id := NewID()
	j, _, err := Open(dir, id, key)
	if err != nil {
		t.Fatal(err)
	}
	h := []message.Message{{Role: message.RoleUser, Content: "secret question"}, {Role: message.RoleAssistant, Content: "answer"}}
	if _, err := j.Sync(h, ReasonSync); err != nil {
		t.Fatal(err)
	}
	p := Path(dir, id)
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("chatcli-sealed:v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n")
	f.Close()
	sealed, _ := os.ReadFile(p)

	other, _ := seal.ParseKey("AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=")
	if _, _, err := Decrypt(p, other); !errors.Is(err, seal.ErrWrongKey) {
		t.Fatalf("wrong key: %v", err)
	}
	if now, _ := os.ReadFile(p); !bytes.Equal(now, sealed) {
		t.Fatal("the wrong key changed the file")
	}
	changed, dropped, err := Decrypt(p, key)
	if err != nil || !changed || len(dropped) != 1 || dropped[0].Line != 3 {
		t.Fatalf("decrypt: %v %v %v", changed, dropped, err)
	}
	if kept, err := os.ReadFile(p + BrokenSuffix); err != nil || !bytes.Equal(kept, sealed) {
		t.Fatalf("no .broken copy of the sealed file: %v", err)
	}
	msgs, _, warnings, err := Messages(p, seal.Key{})
	if err != nil || len(warnings) != 0 || len(msgs) != 2 || msgs[0].Content != "secret question" {
		t.Fatalf("plaintext journal: %v %v %d", err, warnings, len(msgs))
	}
	if changed, _, err := Decrypt(p, key); changed || err != nil {
		t.Fatalf("second decrypt: %v %v", changed, err)
	}
}
