package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/retention"
	"github.com/chatcli/chatcli/internal/session"
)

// The reasons storage prune --apply leaves an item alone for (the store
// changed since the plan) are said in Portuguese under pt-BR and read as
// before in English; the Result keeps them in English for --json.
func TestLeftAloneReasonsSpeakPortuguese(t *testing.T) {
	home := t.TempDir()
	st, err := session.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-100 * 24 * time.Hour)
	st.SetClock(func() time.Time { return old })
	for _, name := range []string{"autosave-gone", "autosave-again"} {
		if err := st.Save(name, &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "hi"}}}); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := retention.Plan(home, retention.DefaultRules(), time.Now())
	if err != nil || len(plan.Items) != 2 {
		t.Fatalf("plan: %+v %v", plan.Items, err)
	}
	if err := os.Remove(filepath.Join(home, "sessions", "autosave-gone.json")); err != nil {
		t.Fatal(err)
	}
	st.SetClock(time.Now)
	if err := st.Save("autosave-again", &session.Session{History: []message.Message{{Role: message.RoleUser, Content: "again"}}}); err != nil {
		t.Fatal(err)
	}
	res, err := retention.Apply(plan)
	if err != nil || len(res.Skipped) != 2 {
		t.Fatalf("apply: %+v %v", res, err)
	}
	for lang, want := range map[string][]string{
		"pt-BR": {"Deixados como estão:\n", "  autosave-gone: já não existe\n", "  autosave-again: atualizada desde o plano\n"},
		"en":    {"Left alone:\n", "  autosave-gone: already gone\n", "  autosave-again: updated since the plan\n"},
	} {
		var out bytes.Buffer
		WriteResultIn(i18n.New(i18n.Match(lang)), &out, res)
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: %q missing from:\n%s", lang, w, out.String())
			}
		}
	}
	for _, s := range res.Skipped {
		if s.Why != "already gone" && s.Why != "updated since the plan" {
			t.Errorf("Why %q: the --json reason is English", s.Why)
		}
	}
}
