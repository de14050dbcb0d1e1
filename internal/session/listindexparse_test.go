package session

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
)

// sampleListIndex is an index whose entries use every member, leave out
// the optional ones, and hold strings encoding/json escapes.
func sampleListIndex() listIndex {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891011121, time.UTC)
	return listIndex{
		"a.json": {Rules: listIndexRules, Size: 5255138, MtimeNanos: at.UnixNano(), Ino: 1<<64 - 1, CtimeNanos: at.UnixNano() + 1, ListedNanos: at.UnixNano() + 9,
			Title: "turn 0: a long prompt…", Messages: 80, CreatedAt: at, UpdatedAt: at.Add(time.Hour), Revision: 9,
			TranscriptID: "f1bccc3fb24aeed5d206944d6fbb4a72", JournalPos: journal.Pos{Seq: 120, Offset: 5371450, Line: 121}, Version: 2, Marked: true},
		"b <&> \"q\".json": {Size: 1, MtimeNanos: -5, ListedNanos: 3, Title: "<html> & \"quotes\" \\ \u2028 \xff", Messages: 0,
			UpdatedAt: at.In(time.FixedZone("", 2*3600)), Version: 1, Corrupt: "b.json: chat_history[1].content: \"bad\" <type>"},
		"c.json": {},
	}
}

// checkListIndex checks that data decodes as json.Unmarshal decodes it,
// and whether the parser (rather than the fallback) took it.
func checkListIndex(t *testing.T, data []byte, wantParsed bool) {
	t.Helper()
	want := listIndex{}
	ok := json.Unmarshal(data, &want) == nil
	got := listIndex{}
	if parsed := parseListIndex(data, got); parsed != wantParsed {
		t.Errorf("parseListIndex(%.200q) = %v, want %v", data, parsed, wantParsed)
	}
	got = listIndex{}
	if dok := decodeListIndex(data, got); dok != ok || (ok && !sameListIndex(got, want)) {
		t.Errorf("decodeListIndex(%.200q) = %v, %+v; json.Unmarshal %v, %+v", data, dok, got, ok, want)
	}
}

func sameListIndex(a, b listIndex) bool {
	return maps.EqualFunc(a, b, func(x, y listIndexEntry) bool {
		return x.CreatedAt.Equal(y.CreatedAt) && x.UpdatedAt.Equal(y.UpdatedAt) &&
			x.UpdatedAt.Location().String() == y.UpdatedAt.Location().String() &&
			func() bool {
				x.CreatedAt, x.UpdatedAt, y.CreatedAt, y.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
				return x == y
			}()
	})
}

func TestParseListIndexReadsWhatMarshalWrites(t *testing.T) {
	data, err := json.Marshal(sampleListIndex())
	if err != nil {
		t.Fatal(err)
	}
	checkListIndex(t, data, true)
	checkListIndex(t, []byte(`{}`), true)
	got := listIndex{}
	if !decodeListIndex(data, got) || got["a.json"] != sampleListIndex()["a.json"] {
		t.Fatalf("decoded %+v", got)
	}
}

// TestDecodeListIndexFallsBackLikeUnmarshal: other spellings of an index
// (an earlier build's, a hand edit, damage) decode as encoding/json
// decodes them.
func TestDecodeListIndexFallsBackLikeUnmarshal(t *testing.T) {
	good, _ := json.Marshal(listIndex{"a.json": sampleListIndex()["a.json"]})
	for _, edit := range [][2]string{
		{`{"a.json":`, `{ "a.json":`},
		{`"size":5255138`, `"Size":5255138`},
		{`"size":5255138`, `"size":5255138.0`},
		{`"size":5255138`, `"size":null`},
		{`"size":5255138`, `"size":"5"`},
		{`"size":5255138`, `"size":5255138,"size":7`},
		{`"size":5255138`, `"size":5255138,"other":[1,{"x":2}]`},
		{`"ino":18446744073709551615`, `"ino":18446744073709551616`},
		{`"title":"turn 0`, `"title":"\u0074urn 0`},
		{`"journal_pos":{"seq":120,`, `"journal_pos":{"line":1,"seq":120,`},
		{`"updated_at":"2026-03-04T06:06:07.891011121Z"`, `"updated_at":"2026-03-04T06:06:07.8910111219Z"`},
		{`"updated_at":"2026-03-04T06:06:07.891011121Z"`, `"updated_at":"2026-02-30T06:06:07Z"`},
		{`"updated_at":"2026-03-04T06:06:07.891011121Z"`, `"updated_at":"2026-03-04T06:06:60Z"`},
		{`"updated_at":"2026-03-04T06:06:07.891011121Z"`, `"updated_at":"2026-03-04T06:06:07.Z"`},
		{`"updated_at":"2026-03-04T06:06:07.891011121Z"`, `"updated_at":"2026-03-04T06:06:07.5+01:00"`},
		{`}}`, `},"a.json":{}}`},
		{`}}`, `}} `},
		{`}}`, `}`},
	} {
		data := strings.Replace(string(good), edit[0], edit[1], 1)
		if data == string(good) {
			t.Fatalf("edit %q does not apply", edit[0])
		}
		parsed := map[string]bool{`"title":"\u0074urn 0`: true, `},"a.json":{}}`: true, `"size":5255138,"size":7`: true,
			`"updated_at":"2026-03-04T06:06:07.5+01:00"`: true, `"updated_at":"2026-03-04T06:06:07.8910111219Z"`: true}[edit[1]]
		t.Run(edit[1], func(t *testing.T) { checkListIndex(t, []byte(data), parsed) })
	}
}

// FuzzDecodeListIndex: whatever the bytes, decodeListIndex answers as
// json.Unmarshal does.
func FuzzDecodeListIndex(f *testing.F) {
	data, _ := json.Marshal(sampleListIndex())
	f.Add(data)
	f.Add([]byte(`{"x.json":{"size":1,"listed_ns":2,"updated_at":"2026-01-02T03:04:05Z"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := listIndex{}
		ok := json.Unmarshal(data, &want) == nil
		got := listIndex{}
		if dok := decodeListIndex(data, got); dok != ok || (ok && !sameListIndex(got, want)) {
			t.Fatalf("decodeListIndex(%q) = %v, %+v; json.Unmarshal %v, %+v", data, dok, got, ok, want)
		}
	})
}
