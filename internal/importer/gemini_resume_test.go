package importer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// geminiResumed writes, beside the whole-file chat record at src (copied
// into dir), the .jsonl file Gemini CLI writes when that chat is resumed
// (google-gemini/gemini-cli packages/core/src/services/chatRecordingService.ts,
// ChatRecordingService.initialize with resumedSessionData: a .json record
// is migrated to "<file>l" as a metadata line {sessionId, projectHash,
// startTime, lastUpdated, kind, directories, summary}, every message
// again, then {"$set":{"sessionId"}}) with one more turn recorded after
// it. It returns both paths.
func geminiResumed(t *testing.T, src, dir string) (string, string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(old, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	json.Unmarshal(rec["messages"], &msgs)
	var b bytes.Buffer
	meta, _ := json.Marshal(map[string]json.RawMessage{"sessionId": rec["sessionId"], "projectHash": rec["projectHash"],
		"startTime": rec["startTime"], "lastUpdated": rec["lastUpdated"], "summary": rec["summary"]})
	b.Write(meta)
	b.WriteByte('\n')
	for _, m := range msgs {
		if err := json.Compact(&b, m); err != nil {
			t.Fatal(err)
		}
		b.WriteByte('\n')
	}
	b.WriteString(`{"$set":{"sessionId":` + string(rec["sessionId"]) + `}}` + "\n")
	b.WriteString(`{"id":"m5","timestamp":"2026-02-04T10:00:00.000Z","type":"user","content":[{"text":"Resumed: try again"}]}` + "\n")
	b.WriteString(`{"id":"m6","timestamp":"2026-02-04T10:00:05.000Z","type":"gemini","content":[{"text":"Written this time"}],"model":"gemini-pro"}` + "\n")
	resumed := old + "l"
	if err := os.WriteFile(resumed, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return old, resumed
}

// Gemini CLI records a resumed chat under the same sessionId, in the same
// file, or, for a whole-file .json record, in the .jsonl copy it migrates
// the record to. Either order of the two files gives one session with the
// resumed turn appended once, and a second run adds nothing.
func TestAResumedGeminiChatExtendsItsSession(t *testing.T) {
	for _, jsonlFirst := range []bool{false, true} {
		f := newFixture(t)
		old, resumed := geminiResumed(t, "testdata/gemini/session-2026-02-03T09-15-7c1e2f3a.json", t.TempDir())
		paths := []string{old, resumed}
		if jsonlFirst {
			paths = []string{resumed, old}
		}
		names := map[string]bool{}
		for range 2 {
			for _, p := range paths {
				names[f.importFile(t, gemini, p).Session] = true
			}
		}
		if len(names) != 1 {
			t.Fatalf("jsonl first %v: sessions %v", jsonlFirst, names)
		}
		for n := range names {
			sess, err := f.st.Load(n)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range sess.History {
				if strings.Contains(m.Content, "try again") || strings.Contains(m.Content, "Written this time") || m.Content == "Hello" {
					got = append(got, m.Content)
				}
			}
			if strings.Join(got, "|") != "Hello|Resumed: try again|Written this time" {
				t.Fatalf("jsonl first %v: %d messages, these %q", jsonlFirst, len(sess.History), got)
			}
		}
	}
}
