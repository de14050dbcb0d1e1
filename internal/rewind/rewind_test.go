package rewind

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// take is Take of history h.
func take(list []Checkpoint, h []message.Message, prompt, code string, at time.Time) []Checkpoint {
	return Take(list, len(h), journal.DigestOf(journal.HashHistory(h)), prompt, code, at)
}

func hist(n int) []message.Message {
	var h []message.Message
	for i := range n {
		h = append(h, message.Message{Role: message.RoleUser, Content: fmt.Sprint("m", i)})
	}
	return h
}

func TestTakeKeepsTheNewestTwentyAndReplacesAnEqualState(t *testing.T) {
	at := time.Date(2026, 11, 30, 14, 32, 5, 0, time.UTC)
	var list []Checkpoint
	for i := range 25 {
		list = take(list, hist(i), fmt.Sprint("prompt ", i), "", at)
	}
	if len(list) != MaxCheckpoints || list[0].Prompt != "prompt 5" || list[19].Messages != 24 {
		t.Fatalf("%d checkpoints, first %q", len(list), list[0].Prompt)
	}
	list = take(list, hist(24), "asked again", strings.Repeat("a", 40), at) // same state as the newest
	if len(list) != MaxCheckpoints || list[19].Prompt != "asked again" || list[19].Code != strings.Repeat("a", 40) {
		t.Fatal("an equal state must replace the newest checkpoint, with the fresh code id")
	}
	long := take(nil, nil, strings.Repeat("👩‍👩‍👧‍👦", 70), "", at)[0].Prompt
	if !strings.HasSuffix(long, "…") || strings.Count(long, "👩‍👩‍👧‍👦") != PromptChars {
		t.Fatalf("prompt label %q", long)
	}
}

func TestEncodeDecode(t *testing.T) {
	h := hist(3)
	list := take(nil, h, "p", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", time.Now())
	list = append(list, take(nil, hist(4), "chat", "", time.Now())...)
	raw, err := Encode(list)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(raw), `"code"`) != 1 {
		t.Fatalf("code id written for a checkpoint without one: %s", raw)
	}
	back, err := Decode(raw)
	if err != nil || len(back) != 2 || back[0].Messages != 3 || back[0].Code != list[0].Code || back[1].Code != "" || back[0].Digest != list[0].Digest {
		t.Fatalf("%v %+v", err, back)
	}
	if _, err := Decode([]byte(`[{"messages":2,"hashes":["x"]}]`)); err == nil {
		t.Fatal("a count that disagrees with the hashes must be refused")
	}
	if _, err := Decode([]byte(`[{"id":"c1"}]`)); err == nil {
		t.Fatal("an entry with neither digest nor hashes must be refused")
	}
	if l, err := Decode(nil); err != nil || l != nil {
		t.Fatal("no checkpoints")
	}
}

// A checkpoint costs the same bytes whatever the length of its history,
// and one written in the older form (every hash listed) reads as the
// same checkpoint with its digest.
func TestCheckpointSizeIsIndependentOfTheHistory(t *testing.T) {
	at := time.Date(2026, 11, 30, 14, 32, 5, 0, time.UTC)
	small, _ := Encode(take(nil, hist(2), "p", "", at))
	big, _ := Encode(take(nil, hist(10000), "p", "", at))
	if len(big)-len(small) != len("10000")-len("2") || len(big) > 200 { // only the count's digits differ
		t.Fatalf("checkpoint of 2 messages: %d bytes, of 10,000: %d", len(small), len(big))
	}
	hashes := journal.HashHistory(hist(5))
	legacy, _ := json.Marshal([]map[string]any{{"at": at, "prompt": "p", "messages": 5, "hashes": hashes}})
	got, err := Decode(legacy)
	if err != nil || len(got) != 1 || got[0].Digest != journal.DigestOf(hashes) || got[0].Messages != 5 {
		t.Fatalf("legacy checkpoint: %+v %v", got, err)
	}
	if again, _ := Encode(got); strings.Contains(string(again), "hashes") {
		t.Fatalf("a legacy checkpoint is written back in the long form: %s", again)
	}
}

func TestMergeIsTheUnionByTimeCapped(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	cp := func(sec int, prompt string) Checkpoint {
		return Checkpoint{At: t0.Add(time.Duration(sec) * time.Second), Prompt: prompt, Messages: 1, Digest: strings.Repeat("0", 32)}
	}
	shared := cp(0, "base")
	got := Merge([]Checkpoint{shared, cp(2, "theirs")}, []Checkpoint{shared, cp(1, "ours"), cp(3, "ours again")})
	var prompts []string
	for _, c := range got {
		prompts = append(prompts, c.Prompt)
	}
	if strings.Join(prompts, ",") != "base,ours,theirs,ours again" {
		t.Fatalf("merged %v", prompts)
	}
	var many, more []Checkpoint
	for i := range MaxCheckpoints {
		many = append(many, cp(2*i, fmt.Sprint("t", i)))
		more = append(more, cp(2*i+1, fmt.Sprint("o", i)))
	}
	got = Merge(many, more)
	if len(got) != MaxCheckpoints || got[0].Prompt != fmt.Sprint("t", MaxCheckpoints/2) || got[len(got)-1].Prompt != fmt.Sprint("o", MaxCheckpoints-1) {
		t.Fatalf("capped merge: %d checkpoints, first %q, last %q", len(got), got[0].Prompt, got[len(got)-1].Prompt)
	}
}
