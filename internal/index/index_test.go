package index_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatcli/chatcli/internal/index"
)

// TestSealedIndexHoldsNoPlaintext: with a key, no word of any message, no
// session name and no transcript id is in any file under index/, and the
// index still answers.
func TestSealedIndexHoldsNoPlaintext(t *testing.T) {
	s := newStore(t, testKey)
	prompts := []string{"zanzibar quokka deployment freeze", "marmalade xylophone on friday", "ภาษาไทยสวยงาม ភាសាខ្មែរ 数据库迁移"}
	e := s.session("secret-plans", prompts...)
	ix := s.index()
	if hits, _ := s.find(ix, "quokka", index.Filter{}); len(hits) != 2 {
		t.Fatalf("quokka: %+v, want the prompt and its reply", hits)
	}
	s.turn(e, "another sealed turn about pangolins")
	if hits, _ := s.find(ix, "pangolins", index.Filter{}); len(hits) == 0 {
		t.Fatal("the turn appended is not found")
	}
	words := []string{"secret-plans", "secret", "plans", e.JournalID(), "offline", "reply", "pangolins", "sealed"}
	for _, p := range prompts {
		words = append(words, strings.Fields(p)...)
	}
	files := 0
	filepath.WalkDir(index.Dir(s.st), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range words {
			if len(w) >= 4 && bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(w))) {
				t.Errorf("%s holds %q in plaintext", p, w)
			}
		}
		return nil
	})
	if files < 3 {
		t.Fatalf("index/ holds %d files, want a manifest and segments", files)
	}
}

// TestUnspacedScriptsFoundInsideSentences: a Thai, Khmer, Lao, Burmese or
// Chinese word inside a sentence of its script is found, and a word made
// of the same characters in another order is not.
func TestUnspacedScriptsFoundInsideSentences(t *testing.T) {
	s := newStore(t, "")
	s.session("th", "ผมชอบกินข้าวผัดกุ้งมากที่สุด")
	s.session("km", "ខ្ញុំចូលចិត្តរៀនភាសាខ្មែរណាស់")
	s.session("lo", "ຂ້ອຍມັກກິນເຂົ້າຫນຽວ")
	s.session("my", "ကျွန်တော်မြန်မာစာလေ့လာနေတယ်")
	s.session("zh", "我们明天迁移数据库服务器")
	ix := s.index()
	for _, tc := range []struct{ query, session string }{
		{"ข้าวผัด", "th"}, {"กุ้ง", "th"}, {"ภาสา", ""},
		{"ភាសាខ្មែរ", "km"}, {"រៀន", "km"},
		{"ເຂົ້າ", "lo"},
		{"မြန်မာ", "my"},
		{"数据库", "zh"},
	} {
		hits, _ := s.find(ix, tc.query, index.Filter{Roles: []string{"user"}})
		switch {
		case tc.session == "" && len(hits) > 0:
			t.Errorf("%q found %v, want nothing", tc.query, where(hits))
		case tc.session != "" && (len(hits) != 1 || hits[0].Session != tc.session):
			t.Errorf("%q found %v, want the prompt of %s", tc.query, where(hits), tc.session)
		}
	}
}

// TestOneHitAcrossForks: a sentence present in five forks is one hit,
// naming the four others.
func TestOneHitAcrossForks(t *testing.T) {
	s := newStore(t, "")
	e := s.session("base", "the deploy freeze starts on friday")
	for _, name := range []string{"f1", "f2", "f3", "f4"} {
		if err := e.Fork(name); err != nil {
			t.Fatal(err)
		}
	}
	s.turn(e, "only f4 speaks of the deploy rollback")
	hits, _ := s.find(s.index(), `"deploy freeze"`, index.Filter{Roles: []string{"user"}})
	if len(hits) != 1 {
		t.Fatalf("hits %v, want one", where(hits))
	}
	if h := hits[0]; h.Session != "base" || h.Position != 1 || !slices.Equal(h.Members, []string{"f1", "f2", "f3", "f4"}) {
		t.Fatalf("hit %+v, want base#1 also in f1…f4", h)
	}
}

// TestDeletedIndexRebuiltSameHits: deleting index/ between searches
// rebuilds it, with the same hits.
func TestDeletedIndexRebuiltSameHits(t *testing.T) {
	s := newStore(t, "")
	e := s.session("one", "alpha beta gamma", "beta gamma delta")
	s.session("two", "gamma epsilon", "alpha alpha alpha")
	s.turn(e, "gamma again")
	queries := []string{"alpha", "gamma", `"beta gamma"`, "gamma -alpha"}
	before := map[string][]index.Hit{}
	ix := s.index()
	for _, q := range queries {
		before[q], _ = s.find(ix, q, index.Filter{})
	}
	if err := os.RemoveAll(index.Dir(s.st)); err != nil {
		t.Fatal(err)
	}
	for _, ix := range []*index.Index{ix, s.index()} { // the same process, and a new one
		for _, q := range queries {
			got, _ := s.find(ix, q, index.Filter{})
			if diff := cmp.Diff(before[q], got); diff != "" {
				t.Errorf("%q after deleting index/ (-before +after):\n%s", q, diff)
			}
		}
	}
}

// TestTurnIndexedWithoutRebuild: a turn appended is found, and indexing it
// is one durable write: an entry appended to the log, while the manifest
// and every segment stay as they were.
func TestTurnIndexedWithoutRebuild(t *testing.T) {
	s := newStore(t, "")
	e := s.session("chat", "first prompt about kittens", "second prompt about puppies")
	ix := s.index()
	s.find(ix, "kittens", index.Filter{})
	before, manifest, log := segments(t, s), readIndexFile(t, s, "MANIFEST"), readLog(t, s)
	s.turn(e, "third prompt about hedgehogs")
	hits, _ := s.find(s.index(), "hedgehogs", index.Filter{Roles: []string{"user"}})
	if len(hits) != 1 || hits[0].Session != "chat" || hits[0].Position != 5 {
		t.Fatalf("hedgehogs: %v, want chat#5", where(hits))
	}
	if diff := cmp.Diff(before, segments(t, s)); diff != "" {
		t.Errorf("segments changed by the turn (-before +after):\n%s", diff)
	}
	if !bytes.Equal(readIndexFile(t, s, "MANIFEST"), manifest) {
		t.Error("the manifest was written again")
	}
	if after := readLog(t, s); len(after) <= len(log) || !bytes.HasPrefix(after, log) {
		t.Errorf("the log went from %d to %d bytes, want an entry appended", len(log), len(after))
	}
}

// readIndexFile returns the bytes of the file name of s's index.
func readIndexFile(t *testing.T, s *store, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(index.Dir(s.st), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readLog returns the bytes of the log of s's index; there is one.
func readLog(t *testing.T, s *store) []byte {
	t.Helper()
	return readIndexFile(t, s, filepath.Base(logPath(t, s)))
}

// logPath returns the path of the log of s's index; there is one.
func logPath(t *testing.T, s *store) string {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(index.Dir(s.st), "log-*.ccl"))
	if len(logs) != 1 {
		t.Fatalf("logs %q, want one", logs)
	}
	return logs[0]
}

// segments returns the segment files of s's index by name.
func segments(t *testing.T, s *store) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(index.Dir(s.st))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".ccx") {
			data, err := os.ReadFile(filepath.Join(index.Dir(s.st), e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = data
		}
	}
	return out
}
