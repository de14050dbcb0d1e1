package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// encodedHead returns the bytes Encode writes for s before chat_history's
// leading comma: what decodeFast hands to decodeHead.
func encodedHead(t testing.TB, s *Session) []byte {
	t.Helper()
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, chatHistoryKey)
	if i < 0 {
		t.Fatalf("no chat_history in %q", data)
	}
	return data[:i]
}

// unmarshalHead is the reference decodeHead must agree with.
func unmarshalHead(head []byte) (headMembers, bool) {
	var w headMembers
	err := json.Unmarshal(append(bytes.Clone(head), '}'), &w)
	return w, err == nil
}

func sameHead(a, b headMembers) bool {
	return a.Version == b.Version && a.Title == b.Title && a.CreatedAt.Equal(b.CreatedAt) &&
		a.CreatedAt.Location().String() == b.CreatedAt.Location().String() && a.UpdatedAt.Equal(b.UpdatedAt) &&
		a.Revision == b.Revision && a.MessageCount == b.MessageCount && a.TranscriptID == b.TranscriptID &&
		a.JournalPos == b.JournalPos && bytes.Equal(a.Lineage, b.Lineage)
}

// checkHead checks that head decodes as json.Unmarshal decodes it, and
// whether the parser (rather than the fallback) took it.
func checkHead(t *testing.T, head []byte, wantParsed bool) {
	t.Helper()
	want, ok := unmarshalHead(head)
	var got headMembers
	if parsed := parseHead(head, &got); parsed != wantParsed {
		t.Errorf("parseHead(%q) = %v, want %v", head, parsed, wantParsed)
	} else if parsed && (!ok || !sameHead(got, want)) {
		t.Errorf("parseHead(%q) = %+v; json.Unmarshal %+v (ok %v)", head, got, want, ok)
	}
	got = headMembers{}
	if dok := decodeHead(head, &got); dok != ok || (ok && !sameHead(got, want)) {
		t.Errorf("decodeHead(%q) = %+v, %v; json.Unmarshal %+v, %v", head, got, dok, want, ok)
	}
}

func TestParseHeadReadsWhatEncodeWrites(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.UTC)
	for _, title := range []string{"", "plain", "é and 日本語 and 🙂", `a "quoted" \ title`, "tab\there", "line\u2028sep",
		"<html> & more", "bad \xff utf-8", strings.Repeat("long ", 200)} {
		for _, journaled := range []int{0, 1, 2, 3} {
			s := &Session{Title: title, CreatedAt: at, UpdatedAt: at.Add(time.Hour), Revision: 41,
				History: []message.Message{{Role: message.RoleUser, Content: "hi"}}}
			if journaled == 0 || journaled == 3 { // lineage after any of the optional members
				s.Lineage = &Lineage{Parent: "src " + strings.ToValidUTF8(title, "\uFFFD"), ParentTranscript: "fedcba9876543210fedcba9876543210",
					At: 7, Kind: LineageFork, CreatedAt: at}
			}
			if journaled > 0 {
				s.TranscriptID = "0123456789abcdef0123456789abcdef"
			}
			if journaled > 1 {
				s.JournalPos = journal.Pos{Seq: 9, Offset: 123456789012, Line: 10}
			}
			head := encodedHead(t, s)
			checkHead(t, head, true)
			var w headMembers
			if parseHead(head, &w); w.Title != strings.ToValidUTF8(title, "\uFFFD") || w.MessageCount != 1 || w.Revision != 41 || !w.UpdatedAt.Equal(s.UpdatedAt) {
				t.Errorf("title %q, journal %d: parsed %+v", title, journaled, w)
			}
			if l := decodeLineage(w.Lineage); (s.Lineage == nil) != (l == nil) || l != nil && *l != *s.Lineage {
				t.Errorf("title %q, journal %d: lineage %+v, want %+v", title, journaled, l, s.Lineage)
			}
		}
	}
}

// parsedEdits are the edits below that leave a header parseHead reads
// itself: the others go to the fallback.
var parsedEdits = map[string]bool{`"version":-2`: true, `"title":"t\u0041"`: true,
	`"created_at":"2026-03-04T05:06:07+02:00"`: true}

// TestDecodeHeadFallsBackLikeUnmarshal: every other spelling of a header
// is left to encoding/json, whose answer decodeHead gives.
func TestDecodeHeadFallsBackLikeUnmarshal(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	good := string(encodedHead(t, &Session{Title: "t", CreatedAt: at, UpdatedAt: at, Revision: 3,
		TranscriptID: "0123456789abcdef0123456789abcdef", JournalPos: journal.Pos{Seq: 2, Offset: 30, Line: 3}}))
	checkHead(t, []byte(good), true)
	for _, edit := range [][2]string{
		{`"version":2`, `"version": 2`},
		{`"version":2`, `"VERSION":2`},
		{`"version":2`, `"version":2.0`},
		{`"version":2`, `"version":2e0`},
		{`"version":2`, `"version":02`},
		{`"version":2`, `"version":-2`},
		{`"version":2`, `"version":99999999999999999999`},
		{`"title":"t"`, `"title":null`},
		{`"title":"t"`, `"title":"t\u0041"`},
		{`"title":"t"`, `"title":"bad\u00"`},
		{`"title":"t"`, "\"title\":\"a\x01b\""},
		{`"revision":3`, `"revision":"3"`},
		{`"created_at":"2026-03-04T05:06:07Z"`, `"created_at":"2026-03-04T05:06:07+02:00"`},
		{`"created_at":"2026-03-04T05:06:07Z"`, `"created_at":"2026-03-04 05:06:07Z"`},
		{`"created_at":"2026-03-04T05:06:07Z"`, `"created_at":"2026-03-04T05:06:07\u005a"`},
		{`"created_at":"2026-03-04T05:06:07Z"`, `"created_at":null`},
		{`"message_count":0`, `"message_count":0,"message_count":5`},
		{`"message_count":0`, `"message_count":0,` + "\n" + `"other":{"x":[1,2]}`},
		{`"journal_pos":{"seq":2,"offset":30,"line":3}`, `"journal_pos":{"line":3,"seq":2,"offset":30}`},
		{`"journal_pos":{"seq":2,"offset":30,"line":3}`, `"journal_pos":null`},
		{`,` + "\n" + `"transcript_id"`, `,"transcript_id"`},
		{`"transcript_id":"0123456789abcdef0123456789abcdef"`, `"transcript_id":7`},
		{`{"version"`, ` {"version"`},
		{`{"version"`, `["version"`},
	} {
		head := strings.Replace(good, edit[0], edit[1], 1)
		if head == good {
			t.Fatalf("edit %q does not apply", edit[0])
		}
		checkHead(t, []byte(head), parsedEdits[edit[1]])
	}
}

// FuzzDecodeHead: whatever the bytes, decodeHead answers as
// json.Unmarshal does.
func FuzzDecodeHead(f *testing.F) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)
	f.Add(encodedHead(f, &Session{Title: "seed \"q\" é", CreatedAt: at, UpdatedAt: at, TranscriptID: "0123456789abcdef0123456789abcdef",
		JournalPos: journal.Pos{Seq: 1, Offset: 2, Line: 2}}))
	f.Add(encodedHead(f, &Session{Title: "short", CreatedAt: at, UpdatedAt: at}))
	f.Fuzz(func(t *testing.T, head []byte) {
		want, ok := unmarshalHead(head)
		var got headMembers
		if dok := decodeHead(head, &got); dok != ok || (ok && !sameHead(got, want)) {
			t.Fatalf("decodeHead(%q) = %+v, %v; json.Unmarshal %+v, %v", head, got, dok, want, ok)
		}
	})
}

// BenchmarkDecodeHead: one header of a session file chatcli wrote.
func BenchmarkDecodeHead(b *testing.B) {
	at := time.Now()
	head := encodedHead(b, &Session{Title: "turn 0: a long prompt, as pasted logs or code make them; a l…", CreatedAt: at, UpdatedAt: at,
		Revision: 9, TranscriptID: "0123456789abcdef0123456789abcdef", JournalPos: journal.Pos{Seq: 120, Offset: 5371450, Line: 121}})
	b.Run("parser", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var w headMembers
			if !decodeHead(head, &w) {
				b.Fatal("not decoded")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := unmarshalHead(head); !ok {
				b.Fatal("not decoded")
			}
		}
	})
}
