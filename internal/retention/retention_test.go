package retention

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/session"
)

func TestPrefixesMatchTheEngine(t *testing.T) {
	if !slices.Equal(MachinePrefixes, conversation.MachinePrefixes) {
		t.Fatalf("retention %v, conversation %v", MachinePrefixes, conversation.MachinePrefixes)
	}
}

func TestTTLSettings(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-old", now.Add(-100*day))
	f.saveAt("autosave-mid", now.Add(-40*day))
	f.saveAt("mcp-week", now.Add(-8*day))
	// Created long ago but updated an hour ago: recent.
	f.save("autosave-busy", now.Add(-30*day), now.Add(-time.Hour), "")
	for _, c := range []struct {
		setting string
		want    []string
	}{
		{"90d", []string{"autosave-old"}},
		{"30", []string{"autosave-old", "autosave-mid"}},
		{"7d", []string{"autosave-old", "autosave-mid", "mcp-week"}},
		{"12h", []string{"autosave-old", "autosave-mid", "mcp-week"}},
		{"0", nil},
	} {
		ttl, err := config.ParseTTL(c.setting)
		if err != nil {
			t.Fatal(err)
		}
		p := f.plan(rulesWith(ttl, 0))
		if got := names(p.Items, ReasonTTL); !slices.Equal(got, c.want) {
			t.Errorf("TTL %s: %v, want %v", c.setting, got, c.want)
		}
		if len(p.Items) != len(c.want) {
			t.Errorf("TTL %s: only TTL items expected: %+v", c.setting, p.Items)
		}
	}
}

func TestKeepCountIsPerPrefixAndTiesAreDeterministic(t *testing.T) {
	f := newFixture(t)
	tie := now.Add(-2 * day)
	for _, n := range []string{"autosave-c", "autosave-a", "autosave-b"} {
		f.saveAt(n, tie)
	}
	f.saveAt("autosave-newest", now.Add(-time.Hour))
	f.saveAt("autosave-oldest", now.Add(-3*day))
	f.saveAt("mcp-1", now.Add(-5*day))
	f.saveAt("mcp-2", now.Add(-4*day))
	f.saveAt("person", now.Add(-9*day))
	// Ranked: newest, a, b, c (tie by name), oldest; keep 3.
	for i := 0; i < 3; i++ {
		p := f.plan(rulesWith(0, 3))
		if got := names(p.Items, ReasonKeepCount); !slices.Equal(got, []string{"autosave-oldest", "autosave-c"}) {
			t.Fatalf("run %d: %v", i, got)
		}
	}
	p := f.plan(rulesWith(0, 1))
	if got := names(p.Items, ReasonKeepCount); !slices.Equal(got, []string{"mcp-1", "autosave-oldest", "autosave-a", "autosave-b", "autosave-c"}) {
		t.Fatalf("keep 1: %v", got)
	}
	// TTL wins over keep-count for a session both rules match.
	p = f.plan(rulesWith(3*day-time.Minute, 3))
	if ttl, keep := names(p.Items, ReasonTTL), names(p.Items, ReasonKeepCount); !slices.Equal(ttl, []string{"mcp-1", "mcp-2", "autosave-oldest"}) ||
		!slices.Equal(keep, []string{"autosave-c"}) {
		t.Fatalf("ttl %v keep %v", ttl, keep)
	}
}

func TestNamedSessionsAreNeverRemoved(t *testing.T) {
	f := newFixture(t)
	ancient := now.Add(-2 * 365 * day)
	for _, n := range []string{"notes", "Autosave-mine", "my-autosave-1", "mcp", "documentação-site"} {
		f.saveAt(n, ancient)
	}
	os.WriteFile(filepath.Join(f.store.Dir(), "autosave-cut.json"), []byte(`{"version":2,"chat`), 0o600)
	p := f.plan(rulesWith(time.Hour, 1))
	if len(p.Items) != 0 {
		t.Fatalf("named or unreadable sessions planned for removal: %+v", p.Items)
	}
	if len(p.Spared) == 0 || !strings.Contains(p.Spared[0].Why, "unreadable") {
		t.Fatalf("the unreadable machine session must be reported as spared: %+v", p.Spared)
	}
}

func TestOpenSessionIsSpared(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-open", now.Add(-200*day))
	r := rulesWith(90*day, 0)
	stale := f.plan(r) // planned before the session was opened
	release, err := MarkOpen(f.home, "autosave-open")
	if err != nil {
		t.Fatal(err)
	}
	if p := f.plan(r); len(p.Items) != 0 || len(p.Spared) != 1 || !strings.Contains(p.Spared[0].Why, "open") {
		t.Fatalf("open session planned: %+v", p)
	}
	// A second process marking it too, then leaving.
	release2, err := MarkOpen(f.home, "autosave-open")
	if err != nil {
		t.Fatal(err)
	}
	release2()
	res, err := Apply(stale)
	if err != nil || len(res.Removed) != 0 || len(res.Skipped) != 1 || !f.store.Exists("autosave-open") {
		t.Fatalf("apply removed an open session: %+v %v", res, err)
	}
	release()
	release() // idempotent
	if _, err := os.Stat(markerPath(f.home, "autosave-open")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the last release removes the marker: %v", err)
	}
	res, err = Apply(f.plan(r))
	if err != nil || len(res.Removed) != 1 || f.store.Exists("autosave-open") {
		t.Fatalf("after release: %+v %v", res, err)
	}
}

func TestMarkerFollowsTheBinding(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-a", now.Add(-200*day))
	f.saveAt("autosave-b", now.Add(-200*day))
	m := NewMarker(f.home)
	m.Set("autosave-a")
	m.Set("autosave-b")
	if isOpen(f.home, "autosave-a") || !isOpen(f.home, "autosave-b") {
		t.Fatal("rebinding moves the mark")
	}
	m.Close()
	if isOpen(f.home, "autosave-b") {
		t.Fatal("close releases")
	}
	if _, err := MarkOpen(f.home, "../x"); !errors.Is(err, session.ErrInvalidName) {
		t.Fatalf("bad name: %v", err)
	}
}

func TestOrphanJournals(t *testing.T) {
	f := newFixture(t)
	old := now.Add(-120 * day)
	ids := map[string]string{}
	for _, k := range []string{"named", "trashed", "orphanOld", "orphanNew"} {
		ids[k] = strings.Repeat(string(rune('a'+len(ids))), 32)
	}
	f.save("notes", now.Add(-day), now.Add(-day), ids["named"])
	f.save("gone", now.Add(-day), now.Add(-day), ids["trashed"])
	if _, err := f.store.Trash("gone"); err != nil {
		t.Fatal(err)
	}
	for k, id := range ids {
		mt := old
		if k == "orphanNew" {
			mt = now.Add(-10 * day)
		}
		f.file("transcripts/"+id+".jsonl", mt)
	}
	f.file("transcripts/not-a-journal.jsonl", old)
	p := f.plan(rulesWith(90*day, 0))
	if got := names(p.Items, ReasonOrphanJournal); !slices.Equal(got, []string{ids["orphanOld"]}) {
		t.Fatalf("orphans: %v", got)
	}
	if p := f.plan(rulesWith(0, 0)); len(p.Items) != 0 {
		t.Fatalf("TTL 0 keeps journals: %+v", p.Items)
	}
	res, err := Apply(p)
	if err != nil || len(res.Removed) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(f.home, "transcripts", ids["orphanOld"]+".jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("orphan journal still there")
	}
	// An unreadable session may name any journal: the rule waits.
	f.file("transcripts/"+strings.Repeat("f", 32)+".jsonl", old)
	os.WriteFile(filepath.Join(f.store.Dir(), "broken.json"), []byte("{"), 0o600)
	if p := f.plan(rulesWith(90*day, 0)); len(p.Items) != 0 || len(p.Spared) != 1 {
		t.Fatalf("with an unreadable session: %+v", p)
	}
}

func TestLeftoverTempFiles(t *testing.T) {
	f := newFixture(t)
	want := []string{
		filepath.Base(f.file("sessions/.autosave-x.json.tmp-123", now.Add(-2*time.Hour))),
		filepath.Base(f.file("transcripts/.abc.jsonl.tmp-9", now.Add(-3*time.Hour))),
		filepath.Base(f.file(".history.tmp-77", now.Add(-5*time.Hour))),
	}
	f.file("sessions/.fresh.json.tmp-1", now.Add(-time.Minute))
	f.file("sessions/.list-index.json", now.Add(-100*day))
	f.file("sessions/.a.tmp-1.json", now.Add(-100*day)) // not a temp: no random suffix
	f.file(".other.tmp-1", now.Add(-100*day))           // not the history's
	f.file("locks/notes.lock", now.Add(-100*day))       // a session's write lock
	f.file("locks/notes.open", now.Add(-100*day))       // its open marker
	p := f.plan(rulesWith(0, 0))
	got := names(p.Items, ReasonTemp)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(p.Items) != 3 {
		t.Fatalf("temps: %v, want %v", got, want)
	}
	for _, it := range p.Items {
		if it.Kind != KindTemp {
			t.Fatalf("%s planned as %s", it.Name, it.Kind)
		}
	}
	if res, err := Apply(p); err != nil || len(res.Removed) != 3 {
		t.Fatalf("%+v %v", res, err)
	}
	if p := f.plan(rulesWith(0, 0)); len(p.Items) != 0 {
		t.Fatalf("after apply: %+v", p.Items)
	}
}

func TestExpiredTrashAndRoundTrip(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-1", now.Add(-100*day))
	f.saveAt("notes", now.Add(-day))
	before, _ := os.ReadFile(filepath.Join(f.store.Dir(), "autosave-1.json"))
	f.store.SetClock(func() time.Time { return now.Add(-8 * day) })
	f.store.Trash("notes") // a person's delete, 8 days ago
	res, err := Apply(f.plan(DefaultRules()))
	if err != nil || !slices.Equal(names(res.Removed, ""), []string{"autosave-1", "notes"}) {
		t.Fatalf("%+v %v", res, err)
	}
	if res.Removed[1].Reason != ReasonExpiredTrash || f.store.Exists("autosave-1") {
		t.Fatalf("%+v", res.Removed)
	}
	if err := f.store.Restore("notes"); !errors.Is(err, session.ErrNotFound) {
		t.Fatalf("expired trash is gone: %v", err)
	}
	if err := f.store.Restore("autosave-1"); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(f.store.Dir(), "autosave-1.json"))
	if string(before) != string(after) {
		t.Fatal("restored session differs")
	}
}

func TestApplySkipsSessionsUpdatedSinceThePlan(t *testing.T) {
	f := newFixture(t)
	f.saveAt("autosave-1", now.Add(-100*day))
	p := f.plan(DefaultRules())
	f.saveAt("autosave-1", now.Add(-time.Minute)) // another process wrote it
	res, err := Apply(p)
	if err != nil || len(res.Removed) != 0 || len(res.Skipped) != 1 || !f.store.Exists("autosave-1") {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestReportListsEachStore(t *testing.T) {
	f := newFixture(t)
	f.saveAt("notes", now.Add(-400*day))
	f.saveAt("autosave-1", now.Add(-100*day))
	f.saveAt("autosave-2", now.Add(-day))
	f.saveAt("mcp-x", now.Add(-day))
	f.file("transcripts/"+strings.Repeat("a", 32)+".jsonl", now.Add(-100*day))
	f.file("history", now)
	f.file("history.broken", now)
	f.file("sessions/.x.json.tmp-1", now.Add(-2*time.Hour))
	f.file("contexts/docs.json", now.Add(-1000*day))
	f.file("memory/notes.json", now.Add(-1000*day))
	f.file("memory/.lock", now.Add(-1000*day))
	lines, err := Report(f.home, DefaultRules(), now)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]StoreLine{}
	for _, l := range lines {
		got[l.Store] = l
		if l.Rule == "" || l.Path == "" {
			t.Errorf("line without rule or path: %+v", l)
		}
	}
	for store, want := range map[string][2]int{ // files, would remove
		"sessions you named": {1, 0}, "sessions autosave-": {2, 1}, "sessions mcp-": {1, 0}, "sessions gw-": {0, 0},
		"transcripts": {1, 1}, "input history": {1, 0}, "trash": {0, 0}, "temp files": {1, 1}, "checkpoints": {0, 0},
		"contexts": {1, 0}, "memory": {2, 0},
	} {
		if l := got[store]; l.Files != want[0] || l.RemoveFiles != want[1] {
			t.Errorf("%s: %+v, want files %d, remove %d", store, l, want[0], want[1])
		}
	}
	if l := got["other files"]; l.Files != 6 { // history.broken, the 4 sessions' lock files and the list index
		t.Errorf("other: %+v", l)
	}
	if len(lines) != 12 {
		t.Errorf("%d lines", len(lines))
	}
}

func TestBackgroundReportsOnlyRemovals(t *testing.T) {
	f := newFixture(t)
	var logs []string
	log := func(s string) { logs = append(logs, s) }
	<-Background(t.Context(), f.home, DefaultRules(), nil, log)
	if len(logs) != 0 {
		t.Fatalf("nothing removed, yet: %v", logs)
	}
	f.saveAt("autosave-1", time.Now().Add(-100*day))
	f.saveAt("notes", time.Now().Add(-1000*day))
	<-Background(t.Context(), f.home, DefaultRules(), nil, log)
	if len(logs) != 1 || !strings.Contains(logs[0], "moved 1 machine-made session to the trash") {
		t.Fatalf("%v", logs)
	}
	if !f.store.Exists("notes") || f.store.Exists("autosave-1") {
		t.Fatal("wrong session removed")
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KB", 20 << 20: "20.0 MB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
}

func TestSettings(t *testing.T) {
	for v, want := range map[string]time.Duration{"90d": 90 * day, "30": 30 * day, "0": 0, "0d": 0, "12h": 12 * time.Hour, " 7d ": 7 * day} {
		if got, err := config.ParseTTL(v); err != nil || got != want {
			t.Errorf("%q: %v %v", v, got, err)
		}
		if got, _ := config.ParseTTL(config.FormatTTL(want)); want != 0 && got != want {
			t.Errorf("FormatTTL(%v) does not read back: %v", want, got)
		}
	}
	for _, v := range []string{"1y", "-3", "-1h", "1.5d", "d", "soon"} {
		if _, err := config.ParseTTL(v); err == nil {
			t.Errorf("%q accepted", v)
		}
	}
	env := func(kv ...string) func(string) string {
		m := map[string]string{"CHATCLI_HOME": "/h"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := config.FromEnv(env())
	if r := FromConfig(c); err != nil || r.SessionTTL != 90*day || r.KeepPerPrefix != 600 || r.TrashTTL != 7*day {
		t.Fatalf("defaults: %+v %v", r, err)
	}
	c, err = config.FromEnv(env("CHATCLI_SESSION_TTL", "30", "CHATCLI_SESSION_AUTOSAVE_KEEP", "5"))
	if r := FromConfig(c); err != nil || r.SessionTTL != 30*day || r.KeepPerPrefix != 5 {
		t.Fatalf("set: %+v %v", r, err)
	}
	for _, kv := range [][2]string{{"CHATCLI_SESSION_TTL", "1y"}, {"CHATCLI_SESSION_AUTOSAVE_KEEP", "-1"}, {"CHATCLI_SESSION_AUTOSAVE_KEEP", "many"}} {
		if _, err := config.FromEnv(env(kv[0], kv[1])); !errors.Is(err, config.ErrConfig) || !strings.Contains(err.Error(), kv[0]) {
			t.Errorf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
}
