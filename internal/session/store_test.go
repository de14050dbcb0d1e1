package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/google/go-cmp/cmp"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	var ticks atomic.Int64 // saves may run on several goroutines
	s.SetClock(func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * time.Second) })
	return s
}

func sample() *Session {
	return &Session{
		TranscriptID: "tr-1",
		History: []message.Message{
			{Role: message.RoleSystem, Content: "be brief"},
			{Role: message.RoleUser, Content: "read <main.go> & \"quote\"\n\ttab", Images: []message.Image{message.ParseImageRef("data:image/png;base64,AAAA")}},
			{Role: message.RoleAssistant, Content: "", ToolCalls: []message.ToolCall{{ID: "a", Type: "function", Name: "read_file", Arguments: `{"path":"main.go"}`}},
				Meta: &message.Meta{Mode: "coder", Extra: map[string]json.RawMessage{"future_meta": json.RawMessage(`{"x":1}`)}}},
			{Role: message.RoleTool, ToolCallID: "a", Content: "package main\x00"},
			{Role: message.RoleAssistant, Content: "done 🎉", Meta: &message.Meta{IsSummary: true, SummaryOf: 3},
				Extra: map[string]json.RawMessage{"reasoning": json.RawMessage(`"hidden"`)}},
		},
		Checkpoints: json.RawMessage(`[{"id":"c1","hashes":["x"]}]`),
		Attachments: json.RawMessage(`[{"path":"a.txt"}]`),
		Extra:       map[string]json.RawMessage{"zz_future": json.RawMessage(`{"k":[1,2]}`)},
	}
}

func TestSaveLoadRoundTripsEveryField(t *testing.T) {
	s := newStore(t)
	in := sample()
	if err := s.Save("demo", in); err != nil {
		t.Fatal(err)
	}
	out, err := s.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if in.Revision != 1 || in.Title != "read <main.go> & \"quote\"  tab" {
		t.Fatalf("save did not set revision/title: %d %q", in.Revision, in.Title)
	}
	in.SourceVersion = 2
	if d := cmp.Diff(in, out); d != "" {
		t.Fatalf("round trip differs (-saved +loaded):\n%s", d)
	}
	// Encoding the loaded copy gives the bytes on disk again.
	b1, _ := os.ReadFile(filepath.Join(s.Dir(), "demo.json"))
	b2, err := Encode(out)
	if err != nil || !bytes.Equal(b1, b2) {
		t.Fatalf("re-encoding changed bytes (%v):\n%s\n---\n%s", err, b1, b2)
	}
}

func TestFilesAreCreatedPrivate(t *testing.T) {
	s := newStore(t)
	if err := s.Save("p", sample()); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(filepath.Join(s.Dir(), "p.json"))
	dt, _ := os.Stat(s.Dir())
	if st.Mode().Perm() != 0o600 || dt.Mode().Perm() != 0o700 {
		t.Fatalf("modes: file %v dir %v", st.Mode().Perm(), dt.Mode().Perm())
	}
}

// failingFile fails its Write after writing half the data, like a disk
// that filled up.
type failingFile struct{ *os.File }

func (f failingFile) Write(p []byte) (int, error) {
	n, _ := f.File.Write(p[:len(p)/2])
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

func TestFailedWriteLeavesOldFileByteIdentical(t *testing.T) { // case dur-1
	s := newStore(t)
	if err := s.Save("keep", sample()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir(), "keep.json")
	before, _ := os.ReadFile(path)

	orig := atomicfile.CreateTemp
	t.Cleanup(func() { atomicfile.CreateTemp = orig })
	atomicfile.CreateTemp = func(dir, pattern string) (atomicfile.TempFile, error) {
		f, err := os.CreateTemp(dir, pattern)
		return failingFile{f}, err
	}
	sess := sample()
	sess.History = append(sess.History, message.Message{Role: message.RoleUser, Content: strings.Repeat("x", 1<<20)})
	err := s.Save("keep", sess)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) {
		t.Fatalf("want ENOSPC naming %s, got %v", path, err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("old file changed after a failed save")
	}
	entries, _ := os.ReadDir(s.Dir())
	if len(entries) != 1 || entries[0].Name() != "keep.json" { // the session alone (its lock is under locks/)
		t.Fatalf("temporary file left behind: %v", entries)
	}
}

func TestDamagedFilesAreReportedByNameAndNeverOverwritten(t *testing.T) { // case dur-1
	good, _ := Encode(sample())
	cases := map[string][]byte{
		"empty":    {},
		"cut":      good[:len(good)/2],
		"cut-tail": good[:len(good)-4],
		"zeroed-middle": func() []byte {
			d := bytes.Clone(good)
			i := bytes.Index(d, []byte(`"chat_history"`)) + 40
			copy(d[i:], bytes.Repeat([]byte{0}, 35))
			return d
		}(),
		"nul-block": bytes.Repeat([]byte{0}, 500),
		"not-json":  []byte("hello\n"),
		"too-new":   []byte(`{"version":3,"chat_history":[]}`),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			s := newStore(t)
			path := filepath.Join(s.Dir(), name+".json")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := s.Load(name)
			want := ErrCorrupt
			if name == "too-new" {
				want = ErrTooNew
			}
			if !errors.Is(err, want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("load: want %v naming %s, got %v", want, path, err)
			}
			if name == "too-new" && !strings.Contains(err.Error(), "version 3") {
				t.Fatalf("too-new error must name both versions: %v", err)
			}
			if err := s.Save(name, sample()); !errors.Is(err, want) {
				t.Fatalf("save over damaged file: want %v, got %v", want, err)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, data) {
				t.Fatal("damaged file was changed")
			}
			list, err := s.List()
			if name == "zeroed-middle" { // listing reads headers only, by design
				return
			}
			if err != nil || len(list) != 1 || !errors.Is(list[0].Err, want) {
				t.Fatalf("list must show the unreadable file: %+v %v", list, err)
			}
		})
	}
}

func TestNames(t *testing.T) { // case name-1
	s := newStore(t)
	for _, bad := range []string{"../../x", "/abs/x", "a/b", "..", ".", "", `C:\x`, "a\x00b", "CON", "con.txt",
		"two words", "-lead", "a..b", "tail.", "tab\tx", strings.Repeat("a", 129)} {
		_, err := NormalizeName(bad)
		if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), "letters and digits") {
			t.Errorf("%q: want ErrInvalidName with the rule, got %v", bad, err)
		}
		if _, err := s.Load(bad); !errors.Is(err, ErrInvalidName) {
			t.Errorf("load %q: %v", bad, err)
		}
		if err := s.Delete(bad); !errors.Is(err, ErrInvalidName) {
			t.Errorf("delete %q: %v", bad, err)
		}
		if err := s.Save(bad, sample()); !errors.Is(err, ErrInvalidName) {
			t.Errorf("save %q: %v", bad, err)
		}
	}
	for _, good := range []string{"documentação-site", "refatoração-legado", "demo", "v1.2_x", "日本語", "नमस्ते",
		"autosave-20261130-065008", strings.Repeat("é", 107), strings.Repeat("a", 128)} {
		if _, err := NormalizeName(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	// NFC: a decomposed name maps to the same file as the composed one.
	if err := s.Save("ac\u0327a\u0303o", sample()); err != nil {
		t.Fatal(err)
	}
	if !s.Exists("ação") {
		t.Fatal("decomposed and composed names must be the same session")
	}
}

func TestCompatFilesLoad(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	if len(files) < 6 {
		t.Fatalf("compat files missing: %v", files)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		var want []message.Message
		var obj struct {
			ChatHistory []message.Message `json:"chat_history"`
		}
		if json.Unmarshal(data, &obj) == nil {
			want = obj.ChatHistory
		} else if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		s := newStore(t)
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if err := os.WriteFile(filepath.Join(s.Dir(), filepath.Base(f)), data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if d := cmp.Diff(want, got.History); d != "" || len(want) == 0 {
			t.Fatalf("%s: messages differ:\n%s", f, d)
		}
		list, _ := s.List()
		if list[0].Err != nil || list[0].Messages != len(want) || list[0].Title == "" {
			t.Fatalf("%s: list %+v", f, list[0])
		}
		// Rewritten as v2 by chatcli, it still holds the same messages.
		if err := s.Save(name, got); err != nil {
			t.Fatal(err)
		}
		again, err := s.Load(name)
		if err != nil || !cmp.Equal(want, again.History) {
			t.Fatalf("%s: after rewrite: %v", f, err)
		}
	}
}

func TestV1PerModeHistoriesAreMerged(t *testing.T) {
	s := newStore(t)
	v1 := `{"chat_history":[{"role":"user","content":"c"}],"agent_history":[{"role":"user","content":"a"}],"coder_history":[{"role":"user","content":"k"}],"other":1}`
	os.WriteFile(filepath.Join(s.Dir(), "old.json"), []byte(v1), 0o600)
	got, err := s.Load("old")
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, m := range got.History {
		mode := ""
		if m.Meta != nil {
			mode = m.Meta.Mode
		}
		seen = append(seen, m.Content+":"+mode)
	}
	if strings.Join(seen, ",") != "c:,a:agent,k:coder" || got.SourceVersion != 1 || string(got.Extra["other"]) != "1" {
		t.Fatalf("merged %v version %d extra %v", seen, got.SourceVersion, got.Extra)
	}
}

func TestLoneSurrogateLoadsAsReplacementCharacter(t *testing.T) { // case enc-1
	s := newStore(t)
	os.WriteFile(filepath.Join(s.Dir(), "enc.json"), []byte(`{"version":2,"chat_history":[{"role":"user","content":"a\ud83db"}]}`), 0o600)
	got, err := s.Load("enc")
	if err != nil {
		t.Fatal(err)
	}
	if got.History[0].Content != "a\uFFFDb" {
		t.Fatalf("got %q", got.History[0].Content)
	}
}

func TestCreateUniqueNeverShares(t *testing.T) {
	s := newStore(t)
	names := make(chan string, 8)
	for range 8 {
		go func() {
			n, err := s.CreateUnique("autosave-20261130-080000", sample())
			if err != nil {
				t.Error(err)
			}
			names <- n
		}()
	}
	seen := map[string]bool{}
	for range 8 {
		seen[<-names] = true
	}
	if len(seen) != 8 || !seen["autosave-20261130-080000"] || !seen["autosave-20261130-080000-8"] {
		t.Fatalf("names: %v", seen)
	}
}

func TestForkRenameDelete(t *testing.T) {
	s := newStore(t)
	if err := s.Save("a", sample()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(s.Dir(), "a.json"))
	f, err := s.Fork("a", "b")
	if err != nil || f.Revision != 1 || f.TranscriptID != "" {
		t.Fatalf("fork: %v %+v", err, f)
	}
	if _, err := s.Fork("b", "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fork("a", "b"); !errors.Is(err, ErrExists) {
		t.Fatalf("fork onto existing: %v", err)
	}
	after, _ := os.ReadFile(filepath.Join(s.Dir(), "a.json"))
	if !bytes.Equal(before, after) {
		t.Fatal("fork changed the original")
	}
	if err := s.Rename("c", "a"); !errors.Is(err, ErrExists) {
		t.Fatalf("rename onto existing: %v", err)
	}
	if err := s.Rename("c", "d"); err != nil || s.Exists("c") || !s.Exists("d") {
		t.Fatalf("rename: %v", err)
	}
	if err := s.Delete("d"); err != nil || s.Exists("d") {
		t.Fatalf("delete: %v", err)
	}
	if err := s.Delete("d"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete missing: %v", err)
	}
}

func TestListIsNewestFirstAndReadsOnlyHeaders(t *testing.T) { // case scale-1
	s := newStore(t)
	for _, n := range []string{"old", "mid", "new"} {
		if err := s.Save(n, sample()); err != nil {
			t.Fatal(err)
		}
	}
	var whole []string
	onWholeCheck = func(p string) { whole = append(whole, filepath.Base(p)) }
	t.Cleanup(func() { onWholeCheck = func(string) {} })
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range list {
		got = append(got, h.Name)
		if h.Err != nil || h.Messages != 5 {
			t.Fatalf("%s: %+v", h.Name, h)
		}
	}
	if strings.Join(got, ",") != "new,mid,old" {
		t.Fatalf("order %v", got)
	}
	if !attrsKept(t, s) {
		t.Skip("the file system keeps no extended attributes: every file is read whole")
	}
	if len(whole) != 0 {
		t.Fatalf("files this store wrote were read whole: %v", whole)
	}
	// Damage the middle of "mid"'s messages: its bytes changed since the
	// store wrote it, so List reads it whole, and agrees with Load.
	p := filepath.Join(s.Dir(), "mid.json")
	data, _ := os.ReadFile(p)
	i := bytes.Index(data, []byte(`"chat_history":[`)) + 20
	copy(data[i:], "@@@@")
	os.WriteFile(p, data, 0o600)
	list, err = s.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range list {
		if (h.Err != nil) != (h.Name == "mid") {
			t.Errorf("%s: %v", h.Name, h.Err)
		}
	}
	if strings.Join(whole, ",") != "mid.json" {
		t.Errorf("read whole: %v", whole)
	}
	if _, err := s.Load("mid"); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("load of damaged body: %v", err)
	}
}

func TestImportLegacy(t *testing.T) {
	s := newStore(t)
	wd := t.TempDir()
	os.WriteFile(filepath.Join(wd, ".chatcli_session_old.json"), []byte(`[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]`), 0o600)
	sess, src, err := s.ImportLegacy(wd, "old")
	if err != nil || len(sess.History) != 2 || !strings.HasSuffix(src, ".chatcli_session_old.json") || !s.Exists("old") {
		t.Fatalf("import: %v %v", err, sess)
	}
	if _, _, err := s.ImportLegacy(wd, "none"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}

// ageListIndex makes the list index's entries old enough to be trusted
// (racyNanos) for the rest of the test.
func ageListIndex(t *testing.T) {
	fileClock = func() time.Time { return time.Now().Add(time.Minute) }
	t.Cleanup(func() { fileClock = time.Now })
}

// setIndexedTitle rewrites the title the list index holds for file: a
// listing showing it was answered by the index.
func setIndexedTitle(t *testing.T, s *Store, file, title string) {
	t.Helper()
	idx := s.readListIndex()
	e, ok := idx[file]
	if !ok {
		t.Fatalf("no index entry for %s", file)
	}
	e.Title = title
	idx[file] = e
	s.writeListIndex(idx)
}

func TestForeignHeadersAreIndexedOnce(t *testing.T) {
	ageListIndex(t)
	s := newStore(t)
	data, _ := os.ReadFile("testdata/demo1.json") // ChatCLI's layout: no message_count
	p := filepath.Join(s.Dir(), "demo1.json")
	os.WriteFile(p, data, 0o600)
	if first, _ := s.List(); first[0].Messages != 4 || first[0].Err != nil {
		t.Fatalf("first %+v", first[0])
	}
	setIndexedTitle(t, s, "demo1.json", "from the index")
	if second, _ := s.List(); second[0].Messages != 4 || second[0].Err != nil || second[0].Title != "from the index" {
		t.Fatalf("second %+v", second[0])
	}
	// A changed file is read again.
	os.WriteFile(p, append(data, ' '), 0o600)
	if third, _ := s.List(); third[0].Messages != 4 || third[0].Err != nil || third[0].Title == "from the index" {
		t.Fatalf("third %+v", third[0])
	}
}

// TestListIndexSeesAnInPlaceRewrite: a file rewritten in place to the same
// size with its mtime set back is read again (its ctime moved), where an
// index keyed by size and mtime alone listed the old header.
func TestListIndexSeesAnInPlaceRewrite(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the index tests the ctime on Linux only")
	}
	ageListIndex(t)
	s := newStore(t)
	data, _ := os.ReadFile("testdata/demo1.json")
	p := filepath.Join(s.Dir(), "demo1.json")
	os.WriteFile(p, data, 0o600)
	if first, _ := s.List(); first[0].Messages != 4 || first[0].Err != nil {
		t.Fatalf("first %+v", first[0])
	}
	st, _ := os.Stat(p)
	broken := bytes.Replace(data, []byte(`"assistant",`), []byte(`"assistant"@`), 1)
	os.WriteFile(p, broken, 0o600)
	os.Chtimes(p, st.ModTime(), st.ModTime())
	if second, _ := s.List(); !errors.Is(second[0].Err, ErrCorrupt) {
		t.Fatalf("the rewritten file is listed from the index: %+v", second[0])
	}
}

// TestListIndexRereadsARacyEntry: an entry made within racyNanos of its
// file's last change is not trusted: the file is read again.
func TestListIndexRereadsARacyEntry(t *testing.T) {
	s := newStore(t)
	data, _ := os.ReadFile("testdata/demo1.json")
	os.WriteFile(filepath.Join(s.Dir(), "demo1.json"), data, 0o600)
	first, _ := s.List()
	setIndexedTitle(t, s, "demo1.json", "from the index")
	if second, _ := s.List(); second[0].Title != first[0].Title {
		t.Fatalf("a racy entry answered: %+v", second[0])
	}
}

func TestLoadTakesUpdatedAtFromTheFileWhenItHasNone(t *testing.T) {
	s := newStore(t)
	p, err := s.Path("demo1")
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"version":2,"title":"t","chat_history":[{"role":"user","content":"hi"}]}`
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2026, 11, 30, 6, 50, 8, 0, time.UTC)
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load("demo1")
	if err != nil {
		t.Fatal(err)
	}
	h, err := s.Stat("demo1")
	if err != nil {
		t.Fatal(err)
	}
	if !sess.UpdatedAt.Equal(mtime) || !h.UpdatedAt.Equal(sess.UpdatedAt) {
		t.Fatalf("Load updated_at %v, Stat %v, want the file's mtime %v", sess.UpdatedAt, h.UpdatedAt, mtime)
	}
}

// The check of the file being replaced runs beside the encoding of the new
// one; when it refuses, the session is left as it was and nothing written.
func TestRefusedSaveLeavesTheSessionAsItWas(t *testing.T) {
	s, _ := Open(t.TempDir())
	p, _ := s.Path("cut")
	damaged := []byte(`{"version":2,"title":"x","chat_history":[{"role":"user","content":"a`)
	if err := os.WriteFile(p, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	sess := &Session{Revision: 7, History: []message.Message{{Role: message.RoleUser, Content: "new"}}}
	if err := s.Save("cut", sess); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("save over a cut file: %v", err)
	}
	if sess.Revision != 7 || !sess.UpdatedAt.IsZero() || !sess.CreatedAt.IsZero() || sess.Title != "" {
		t.Fatalf("a refused save changed the session: %+v", sess)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, damaged) {
		t.Fatal("the cut file changed")
	}
}
