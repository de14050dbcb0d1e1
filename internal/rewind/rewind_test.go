package rewind

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/message"
)

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
		list = Take(list, hist(i), fmt.Sprint("prompt ", i), "", at)
	}
	if len(list) != MaxCheckpoints || list[0].Prompt != "prompt 5" || list[19].Messages != 24 {
		t.Fatalf("%d checkpoints, first %q", len(list), list[0].Prompt)
	}
	list = Take(list, hist(24), "asked again", strings.Repeat("a", 40), at) // same state as the newest
	if len(list) != MaxCheckpoints || list[19].Prompt != "asked again" || list[19].Code != strings.Repeat("a", 40) {
		t.Fatal("an equal state must replace the newest checkpoint, with the fresh code id")
	}
	long := Take(nil, nil, strings.Repeat("👩‍👩‍👧‍👦", 70), "", at)[0].Prompt
	if !strings.HasSuffix(long, "…") || strings.Count(long, "👩‍👩‍👧‍👦") != PromptChars {
		t.Fatalf("prompt label %q", long)
	}
}

func TestEncodeDecodeAndResolve(t *testing.T) {
	h := hist(3)
	list := Take(nil, h, "p", "4b825dc642cb6eb9a060e54bf8d69288fbee4904", time.Now())
	list = append(list, Take(nil, hist(4), "chat", "", time.Now())...)
	raw, err := Encode(list)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(raw), `"code"`) != 1 {
		t.Fatalf("code id written for a checkpoint without one: %s", raw)
	}
	back, err := Decode(raw)
	if err != nil || len(back) != 2 || back[0].Messages != 3 || back[0].Code != list[0].Code || back[1].Code != "" {
		t.Fatalf("%v %+v", err, back)
	}
	k := Known{}
	if _, ok := k.Resolve(back[0]); ok {
		t.Fatal("nothing is known yet")
	}
	k.AddHistory(append(h, message.Message{Role: message.RoleAssistant, Content: "later"}))
	got, ok := k.Resolve(back[0])
	if !ok || len(got) != 3 || got[2].Content != "m2" {
		t.Fatalf("%v %v", ok, got)
	}
	if _, err := Decode([]byte(`[{"messages":2,"hashes":["x"]}]`)); err == nil {
		t.Fatal("a count that disagrees with the hashes must be refused")
	}
	if l, err := Decode(nil); err != nil || l != nil {
		t.Fatal("no checkpoints")
	}
}

func TestMergeIsTheUnionByTimeCapped(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	cp := func(sec int, prompt string) Checkpoint {
		return Checkpoint{At: t0.Add(time.Duration(sec) * time.Second), Prompt: prompt, Messages: 1, Hashes: []string{"h"}}
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
