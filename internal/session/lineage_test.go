package session

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"
)

func TestLineageIsInTheHeaderOfEveryKindOfFile(t *testing.T) {
	want := Lineage{Parent: "main", ParentTranscript: "0a1b", At: 4, Kind: LineageFork,
		CreatedAt: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)}
	for _, sealed := range []bool{false, true} {
		s := newStore(t)
		if sealed {
			s.SetKey(testKey(t, 7))
		}
		sess := sample()
		l := want
		sess.Lineage = &l
		if err := s.Save("child", sess); err != nil {
			t.Fatal(err)
		}
		if !sealed {
			data, _ := os.ReadFile(s.mustPath(t, "child"))
			head := data[:bytes.Index(data, chatHistoryKey)]
			if !bytes.Contains(head, []byte(`"lineage":{"parent":"main"`)) {
				t.Fatalf("the lineage must be in the header, before chat_history:\n%s", head)
			}
			var doc map[string]json.RawMessage // ChatCLI reads the file as plain JSON
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
		}
		// Load, Stat, List, and List again from the list index.
		got, err := s.Load("child")
		if err != nil || got.Lineage == nil || *got.Lineage != want {
			t.Fatalf("sealed %v: Load's lineage %+v: %v", sealed, got.Lineage, err)
		}
		for pass := range 2 {
			list, err := s.List()
			if err != nil || len(list) != 1 || list[0].Lineage == nil || *list[0].Lineage != want {
				t.Fatalf("sealed %v, listing %d: %+v %v", sealed, pass, list, err)
			}
		}
		// A later save keeps it; a rename moves it with the file.
		got.History = got.History[:2]
		if err := s.Save("child", got); err != nil {
			t.Fatal(err)
		}
		if err := s.Rename("child", "renamed"); err != nil {
			t.Fatal(err)
		}
		if h, err := s.Stat("renamed"); err != nil || h.Lineage == nil || *h.Lineage != want {
			t.Fatalf("sealed %v: after a save and a rename: %+v %v", sealed, h.Lineage, err)
		}
	}
}

func TestADamagedLineageIsIgnoredNotRefused(t *testing.T) {
	s := newStore(t)
	if err := s.Save("a", sample()); err != nil {
		t.Fatal(err)
	}
	p := s.mustPath(t, "a")
	data, _ := os.ReadFile(p)
	for _, bad := range []string{`"lineage":"main",`, `"lineage":{"parent":7},`, `"lineage":null,`, `"lineage":{"at":3},`} {
		edited := bytes.Replace(data, []byte(`"chat_history":[`), []byte(bad+`"chat_history":[`), 1)
		if err := os.WriteFile(p, edited, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load("a")
		if err != nil || got.Lineage != nil {
			t.Fatalf("%s: %+v %v", bad, got, err)
		}
		if h, err := s.Stat("a"); err != nil || h.Lineage != nil {
			t.Fatalf("%s: header %+v %v", bad, h, err)
		}
	}
}

func (s *Store) mustPath(t *testing.T, name string) string {
	t.Helper()
	p, err := s.Path(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
