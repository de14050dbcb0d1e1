package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/google/go-cmp/cmp"
)

// longHistory is a session whose chat_history spans several of
// DecodeReader's batches.
func longHistory(t *testing.T) *Session {
	t.Helper()
	s := &Session{Title: "long"}
	body := strings.Repeat("é", 2000)
	for i := 0; len(s.History)*len(body) < 3*historyBatchBytes; i++ {
		s.History = append(s.History, message.Message{Role: message.RoleUser, Content: fmt.Sprint(i, body)},
			message.Message{Role: message.RoleAssistant, Content: fmt.Sprint("answer ", i)})
	}
	return s
}

func TestDecodeAcrossBatches(t *testing.T) {
	s := longHistory(t)
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.History, got.History); diff != "" {
		t.Fatalf("history changed (-want +got):\n%s", diff)
	}
}

// A message that does not decode is named by its number and byte offset,
// also when it sits in a later batch.
func TestDecodeNamesTheBadMessage(t *testing.T) {
	s := longHistory(t)
	bad := len(s.History) - 3
	s.History[bad-1].Content = "MARK"
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(`"content":"MARK"`))
	data = append(data[:i:i], append([]byte(`"content":5`), data[i+len(`"content":"MARK"`):]...)...)
	_, err = Decode(data)
	if !errors.Is(err, errFormat) {
		t.Fatalf("err = %v, want errFormat", err)
	}
	m := regexp.MustCompile(`message #(\d+) at byte (\d+)`).FindStringSubmatch(err.Error())
	if m == nil || m[1] != strconv.Itoa(bad) {
		t.Fatalf("err = %v, want message #%d named", err, bad)
	}
	at, _ := strconv.Atoi(m[2])
	if !bytes.HasPrefix(data[at:], []byte(`{"role":"user","content":5`)) {
		t.Fatalf("byte %d starts %q, not the bad message", at, data[at:at+30])
	}
}

// A file of a newer format is reported as too new even when its messages
// are not this format's: version may come after chat_history.
func TestTooNewWinsOverItsMessages(t *testing.T) {
	st := newStore(t)
	p := filepath.Join(st.Dir(), "future.json")
	doc := `{"chat_history":[{"role":"user","content":{"parts":["hi"]}}],"version":3}`
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load("future"); !errors.Is(err, ErrTooNew) {
		t.Fatalf("Load = %v, want ErrTooNew", err)
	}
	if got, _ := os.ReadFile(p); string(got) != doc {
		t.Fatal("the file was changed")
	}
}

// Member names of any length survive, and a repeated chat_history is the
// last one, as encoding/json decodes it.
func TestDecodeKeepsLongNamesAndTheLastHistory(t *testing.T) {
	long := strings.Repeat("k", 5000)
	doc := `{"version":2,"chat_history":[{"role":"user","content":"old"}],"` + long +
		`":{"a":1},"chat_history":[{"role":"user","content":"new"}]}`
	s, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if string(s.Extra[long]) != `{"a":1}` {
		t.Fatalf("long member lost: %v", s.Extra)
	}
	if len(s.History) != 1 || s.History[0].Content != "new" {
		t.Fatalf("history = %+v, want the last chat_history", s.History)
	}
	out, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"`+long+`":{"a":1}`)) {
		t.Fatal("long member not written back")
	}
}

// What the file system fails to read is a read error naming the file,
// never a corrupt session.
func TestReadErrorIsNotCorrupt(t *testing.T) {
	st := newStore(t)
	if err := os.Mkdir(filepath.Join(st.Dir(), "dir.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := st.Load("dir")
	if err == nil || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "dir.json") {
		t.Fatalf("Load = %v, want a read error naming dir.json", err)
	}
}

func TestDecodeRefusesWhatIsNotASession(t *testing.T) {
	for _, doc := range []string{` `, `"text"`, `5`, `{"chat_history":"x"}`, `{"chat_history":[1]}`, `[{"role":"user","content":"a"}] x`, `{"a":1`} {
		if _, err := Decode([]byte(doc)); err == nil {
			t.Errorf("Decode(%q) = nil error", doc)
		}
	}
}
