package gateway

import (
	"slices"
	"strings"
	"testing"
)

func reply(n int, prompt string) string {
	return "[offline] reply #" + string(rune('0'+n)) + " to: " + prompt
}

func TestUnknownSenderGetsNothingAndIsLoggedOnce(t *testing.T) {
	f := newFixture(t)
	for range 3 {
		if got := f.send("666", "hello"); len(got) != 0 {
			t.Fatalf("unknown sender answered: %q", got)
		}
	}
	if n := f.logged("user 666"); n != 1 {
		t.Fatalf("logged %d times, want once: %q", n, f.logs)
	}
	if list, _ := f.store().List(); len(list) != 0 {
		t.Fatalf("an unknown sender's message was kept: %+v", list)
	}
}

func TestEmptyAllowListAnswersNobody(t *testing.T) {
	f := newFixture(t)
	f.g.o.Allow = nil
	if got := f.send("42", "hello"); len(got) != 0 {
		t.Fatalf("answered %q", got)
	}
}

func TestUnboundConversationIsMirroredAndContinuedAfterARestart(t *testing.T) {
	f := newFixture(t)
	if got := f.send("42", "one"); !slices.Equal(got, []string{reply(1, "one")}) {
		t.Fatalf("got %q", got)
	}
	f.restart()
	if got := f.send("42", "two"); !slices.Equal(got, []string{reply(2, "two")}) {
		t.Fatalf("after a restart: %q (the conversation did not continue)", got)
	}
	f.restart()
	want := []string{"user: one", "assistant: " + reply(1, "one"), "user: two", "assistant: " + reply(2, "two")}
	if got := f.history("gw-telegram-42"); !slices.Equal(got, want) {
		t.Fatalf("mirror holds\n%q\nwant\n%q", got, want)
	}
}

func TestAttachIsPersistedPerPrincipal(t *testing.T) {
	f := newFixture(t)
	f.g.o.Allow["telegram"] = AllowList{"42", "43"}
	if got := f.send("42", "/session attach projeto-x"); len(got) != 1 || !strings.Contains(got[0], "projeto-x") {
		t.Fatalf("attach answered %q", got)
	}
	f.send("42", "first")
	f.send("43", "someone else") // another principal: its own conversation
	f.restart()
	f.g.o.Allow["telegram"] = AllowList{"42", "43"}
	if got := f.send("42", "/session status"); len(got) != 1 || !strings.Contains(got[0], "projeto-x") {
		t.Fatalf("status after a restart: %q", got)
	}
	if got := f.send("42", "second"); !slices.Equal(got, []string{reply(2, "second")}) {
		t.Fatalf("got %q", got)
	}
	f.restart()
	want := []string{"user: first", "assistant: " + reply(1, "first"), "user: second", "assistant: " + reply(2, "second")}
	if got := f.history("projeto-x"); !slices.Equal(got, want) {
		t.Fatalf("projeto-x holds\n%q\nwant\n%q", got, want)
	}
	if got := f.history("gw-telegram-43"); len(got) != 2 {
		t.Fatalf("user 43's mirror: %q", got)
	}
}

func TestNoDeleteFromAChat(t *testing.T) {
	f := newFixture(t)
	f.send("42", "/session save keepme")
	f.send("42", "hello")
	for _, line := range []string{"/session delete keepme", "/session delete keepme --yes", "/session rename keepme other", "/exit"} {
		got := f.send("42", line)
		if len(got) != 1 || !strings.Contains(got[0], "not") {
			t.Fatalf("%s answered %q", line, got)
		}
	}
	if !f.store().Exists("keepme") {
		t.Fatal("a chat deleted a session")
	}
}

func TestNewStartsAnotherMirror(t *testing.T) {
	f := newFixture(t)
	f.send("42", "old")
	f.send("42", "/session new")
	f.send("42", "fresh")
	f.restart()
	if got := f.history("gw-telegram-42"); len(got) != 2 || got[0] != "user: old" {
		t.Fatalf("the first mirror was overwritten: %q", got)
	}
	list, _ := f.store().List()
	var names []string
	for _, h := range list {
		names = append(names, h.Name)
	}
	if len(names) != 2 || !strings.HasPrefix(names[0], "gw-telegram-42-") {
		t.Fatalf("sessions %q, want the new conversation in gw-telegram-42-<time>", names)
	}
}

func TestProviderErrorIsOneLine(t *testing.T) {
	f := newFixture(t)
	f.prov = failingProvider(t)
	got := f.send("42", "hello")
	if len(got) != 1 || !strings.HasPrefix(got[0], "error: ") || strings.Contains(got[0], "\n") {
		t.Fatalf("answered %q, want one error line", got)
	}
	if h := f.history("gw-telegram-42"); len(h) == 0 || h[0] != "user: hello" {
		t.Fatalf("the prompt was not kept: %q", h)
	}
}
