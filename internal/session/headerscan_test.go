package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// loadedHeader is what List must show of session name: the messages and
// title Load gives (the title a save would give when the file has none).
func loadedHeader(t *testing.T, s *Store, name string) (int, string, error) {
	t.Helper()
	sess, err := s.Load(name)
	if err != nil {
		return 0, "", err
	}
	title := sess.Title
	if title == "" {
		title = DeriveTitle(sess.History)
	}
	return len(sess.History), title, nil
}

// checkListedAsLoaded lists the store twice (read, then from the list
// index) and checks every file Load reads against what Load gives. It
// returns the listing.
func checkListedAsLoaded(t *testing.T, s *Store) []Header {
	t.Helper()
	ageListIndex(t) // the second listing is the index's
	var first []Header
	for pass := range 2 {
		list, err := s.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range list {
			n, title, err := loadedHeader(t, s, h.Name)
			if err != nil {
				if h.Err == nil {
					t.Logf("%s: Load refuses it (%v); List, which does not decode every message, shows %d messages", h.Name, err, h.Messages)
				}
				continue
			}
			if h.Err != nil || h.Messages != n || h.Title != title {
				t.Errorf("pass %d, %s: List gives %d messages, title %q (%v); Load %d, %q", pass, h.Name, h.Messages, h.Title, h.Err, n, title)
			}
		}
		if pass == 0 {
			first = list
			if _, err := os.Stat(s.listIndexPath()); err != nil {
				t.Fatalf("no list index after the first listing: %v", err)
			}
		}
	}
	return first
}

// Every session file ChatCLI 1.188.0 wrote (testdata/chatcli-1.188.0) is
// listed with the messages and title Load gives, read whole on first sight
// and from the index after.
func TestListShowsChatCLIFilesAsLoadReadsThem(t *testing.T) {
	files := compatFiles(t)
	s := newStore(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.Dir(), filepath.Base(f)), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list := checkListedAsLoaded(t, s)
	if len(list) != len(files) {
		t.Fatalf("%d files listed, want %d", len(list), len(files))
	}
	for _, h := range list {
		if h.Err != nil || h.skipped || h.Messages <= 0 || h.Title == "" {
			t.Errorf("%s: %+v", h.Name, h)
		}
	}
}

// Documents in other programs' layouts, each listed as Load reads it:
// versions 1 and 2, merged and separate per-mode histories, titles given,
// empty or derived, summaries, member names in other cases, repeated
// members, escapes.
func TestListCountsForeignFilesAsLoad(t *testing.T) {
	docs := map[string]string{
		"bare":          `[{"role":"system","content":"s"},{"role":"user","content":"first \"q\"\nline"},{"role":"assistant","content":"a"}]`,
		"bare-empty":    ` [ ] `,
		"v1-modes":      `{"chat_history":[{"role":"assistant","content":"c"}],"agent_history":[{"role":"user","content":"agent asks"}],"coder_history":[{"role":"user","content":"k"},{"role":"assistant","content":"k2"}]}`,
		"v1-version":    `{"version":1,"coder_history":[{"role":"user","content":"coder first"}],"agent_history":null,"chat_history":[]}`,
		"v1-zero":       `{"version":0,"agent_history":[{"role":"user","content":"x"}]}`,
		"v2-modes":      `{"version":2,"chat_history":[{"role":"user","content":"chat"}],"agent_history":[{"role":"user","content":"a"},1,"x"],"coder_history":{"not":"messages"}}`,
		"v2-null":       `{"version":2,"title":"t","chat_history":null}`,
		"no-history":    `{"version":2,"title":"t"}`,
		"summary-first": `{"version":2,"chat_history":[{"role":"user","content":"[SUMMARY]","meta":{"is_summary":true,"summary_of":9}},{"role":"user","content":"real"}]}`,
		"meta-null":     `{"version":2,"chat_history":[{"role":"user","content":"m","meta":null}]}`,
		"empty-first":   `{"version":2,"chat_history":[{"role":"user","content":""},{"role":"user","content":"second"}]}`,
		"null-content":  `{"version":2,"chat_history":[{"role":"user","content":null},{"role":"user"},{"role":"user","content":"third"}]}`,
		"folded-keys":   `{"version":2,"chat_history":[{"ROLE":"user","Content":"folded","META":{"IS_SUMMARY":false}}]}`,
		"repeated":      `{"version":2,"chat_history":[{"role":"assistant","role":"user","content":"x","content":"last wins","meta":{"is_summary":true},"meta":{}}],"chat_history":[{"role":"user","content":"second array"},{"role":"user","content":"b"}]}`,
		"title-after":   `{"chat_history":[{"role":"user","content":"derived"}],"version":2,"title":"given"}`,
		"title-empty":   `{"version":2,"title":"","chat_history":[{"role":"user","content":"derived"}]}`,
		"title-null":    `{"version":2,"title":"given","title":null,"chat_history":[{"role":"user","content":"derived"}]}`,
		"escapes":       `{"version":2,"title":"t\u00e9\\\"","chat_history":[{"role":"user","content":"\ud83c\udf89 \\\" \u003cb\u003e","images":["\\\""]},{"role":"tool","content":"]}\"{["}]}`,
		"long-line":     `{"version":2,"chat_history":[{"role":"user","content":"` + strings.Repeat("word\\t", 200) + `"}]}`,
		"other-members": `{"version":2,"checkpoints":[{"a":[1,2,{"b":"]"}]}],"chat_history":[{"role":"user","content":"x","tool_calls":[{"id":"1","name":"f","arguments":"{}"}]}],"x":{"y":[true,false,null,-1.5e-3]},"shared_memory":[]}`,
	}
	s := newStore(t)
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(s.Dir(), name+".json"), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range checkListedAsLoaded(t, s) {
		if _, _, err := loadedHeader(t, s, h.Name); err != nil {
			t.Errorf("%s: the table holds a document Load refuses: %v", h.Name, err)
		}
	}
}

// Files Load refuses for their structure, their header members or their
// version are listed as unreadable, with the same class of error.
func TestListRefusesWhatLoadRefuses(t *testing.T) {
	docs := map[string]string{
		"cut":           `{"version":2,"chat_history":[{"role":"user","content":"x"}`,
		"cut-string":    `{"version":2,"chat_history":[{"role":"user","content":"x\"`,
		"not-object":    `{"version":2,"chat_history":[1]}`,
		"null-message":  `{"version":2,"chat_history":[null]}`,
		"not-array":     `{"version":2,"chat_history":{}}`,
		"v1-agent-bad":  `{"agent_history":["x"]}`,
		"bad-version":   `{"version":"2","chat_history":[]}`,
		"bad-time":      `{"version":2,"created_at":"yesterday","chat_history":[]}`,
		"bad-role":      `{"version":2,"chat_history":[{"role":5,"content":"x"}]}`,
		"bad-content":   `{"version":2,"chat_history":[{"role":"user","content":["x"]}]}`,
		"bad-meta":      `{"version":2,"chat_history":[{"role":"user","content":"x","meta":"m"}]}`,
		"bad-summary":   `{"version":2,"chat_history":[{"role":"user","content":"x","meta":{"is_summary":"yes"}}]}`,
		"trailing":      `{"version":2,"chat_history":[]} {}`,
		"bad-literal":   `{"version":2,"x":nul,"chat_history":[]}`,
		"bad-number":    `{"version":2,"x":01,"chat_history":[]}`,
		"too-new":       `{"version":3,"chat_history":[]}`,
		"too-new-later": `{"chat_history":[{"role":"user","content":"x"}],"version":3}`,
		"bare-cut":      `[{"role":"user","content":"x"},`,
		"scalar":        `"just a string"`,
	}
	s := newStore(t)
	for name, doc := range docs {
		if err := os.WriteFile(filepath.Join(s.Dir(), name+".json"), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range list {
		_, lerr := s.Load(h.Name)
		if lerr == nil {
			t.Errorf("%s: the table holds a document Load reads", h.Name)
			continue
		}
		sentinel := ErrCorrupt
		if errors.Is(lerr, ErrTooNew) {
			sentinel = ErrTooNew
		}
		if !errors.Is(h.Err, sentinel) || !strings.Contains(h.Err.Error(), h.Name+".json") {
			t.Errorf("%s: List gives %v; Load %v", h.Name, h.Err, lerr)
		}
	}
}

// A foreign file cut at any byte is listed as unreadable.
func TestListRefusesEveryCutOfAForeignFile(t *testing.T) {
	data, err := os.ReadFile("testdata/chatcli-1.188.0/compactme.json")
	if err != nil {
		t.Fatal(err)
	}
	s := newStore(t)
	p := filepath.Join(s.Dir(), "cut.json")
	end := len(bytes.TrimRight(data, " \n"))
	for cut := 1; cut < end; cut += 3 {
		if err := os.WriteFile(p, data[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		if h, err := s.Stat("cut"); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("cut at byte %d of %d: %+v %v", cut, len(data), h, err)
		}
	}
}

// The title of a foreign file whose first message is far longer than what
// the scan reads of it is the one Load and DeriveTitle give, wherever the
// scan's cut falls (inside an escape, a surrogate pair or a UTF-8
// sequence).
func TestTitleOfAVeryLongFirstMessage(t *testing.T) {
	s := newStore(t)
	for shift := range 13 {
		content := strings.Repeat("a", shift) + strings.Repeat("<é>\n\t🎉\u2028\"\\", titleSourceBytes/8)
		doc, err := json.Marshal(map[string]any{"version": 2, "chat_history": []map[string]string{{"role": "user", "content": content}}})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("long%02d", shift)
		if err := os.WriteFile(filepath.Join(s.Dir(), name+".json"), doc, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	checkListedAsLoaded(t, s)
}

// Reading the header of a large foreign file takes memory bounded by the
// scan's buffers, not by the file: here 40 MB of messages, one of 8 MB.
func TestForeignHeaderMemoryDoesNotGrowWithTheFile(t *testing.T) {
	s := newStore(t)
	var b bytes.Buffer
	b.WriteString(`{"version":2,"title":"big","chat_history":[{"role":"user","content":"`)
	b.WriteString(strings.Repeat(`huge \"first\" message\n`, 8<<20/24))
	b.WriteString(`"}`)
	line := `,{"role":"assistant","content":"` + strings.Repeat(`reply \u00e9 `, 2<<10/12) + `"}`
	for b.Len() < 40<<20 {
		b.WriteString(line)
	}
	b.WriteString(`]}`)
	if err := os.WriteFile(filepath.Join(s.Dir(), "big.json"), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	want := 1 + (b.Len()-8<<20)/len(line)
	if _, err := s.Stat("big"); err != nil { // warms the buffer pool
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h, err := s.Stat("big")
	runtime.ReadMemStats(&after)
	if err != nil || h.Messages < want-1 || h.Messages > want+1 || h.Title != "big" {
		t.Fatalf("%+v %v, want about %d messages", h, err, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("reading the header of a %d MB file allocated %d KB", b.Len()>>20, alloc>>10)
	}
}
