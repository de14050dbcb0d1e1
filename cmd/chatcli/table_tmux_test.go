package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// wholeLines is the tmux screen with its history, each line as it was
// written (tmux -J joins the rows a line wrapped into).
func (s tmuxSession) wholeLines() []string {
	return strings.Split(strings.TrimRight(s.run("capture-pane", "-p", "-J", "-S", "-", "-t", s.name), "\n"), "\n")
}

// overflowing are the lines wider than width display cells.
func overflowing(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		if ansi.StringWidth(strings.TrimRight(l, " ")) > width {
			out = append(out, l)
		}
	}
	return out
}

// TestTablesFitAnEightyColumnTerminal: on an 80-column terminal the
// tables of chatcli storage, chatcli config and the REPL's /config and
// /storage fit: no line is wider than 80 cells, the long rules and values
// wrap under their column, in English and in Portuguese.
func TestTablesFitAnEightyColumnTerminal(t *testing.T) {
	needTmux(t)
	for i, tc := range []struct {
		args       []string
		lang, last string
		also       []string
		keys       []string
	}{
		{[]string{"storage"}, "pt-BR", "outros arquivos", []string{"ARMAZENAMENTO", "(CHATCLI_SESSION_TTL)"}, nil},
		{[]string{"storage"}, "en", "other files", []string{"STORE", "(CHATCLI_SESSION_TTL)"}, nil},
		{[]string{"config"}, "en", "GITHUB_MODELS_BASE_URL", []string{"AWS_REGION,"}, nil},
		{nil, "pt-BR", "CHATCLI_ENCRYPTION_KEY", []string{"(/model;", "ARMAZENAMENTO"},
			[]string{"/model um-modelo-de-nome-bem-comprido", "/storage", "/config session"}},
		{nil, "en", "CHATCLI_ENCRYPTION_KEY", []string{"(/model;", "STORE"},
			[]string{"/model a-model-with-a-rather-long-name", "/storage", "/config session"}},
	} {
		s := tmuxSession{t: t, name: fmt.Sprintf("chatcli-fit-%d-%d", os.Getpid(), i), args: tc.args}
		srv, _ := markerServer(t, "never")
		s.start(80, 200, "CHATCLI_LANG="+tc.lang, "OPENAI_BASE_URL="+srv.URL+"/v1")
		prompt, shown := "gpt-4o-mini>", map[string]int{}
		for _, k := range tc.keys {
			shown[prompt]++
			s.waitForCount(prompt, shown[prompt]) // the line before is answered
			s.run("send-keys", "-t", s.name, "-l", k)
			s.run("send-keys", "-t", s.name, "Enter")
			if m, ok := strings.CutPrefix(k, "/model "); ok {
				prompt = m + ">"
			}
		}
		s.waitFor(tc.last, tc.also...)
		lines := s.wholeLines()
		if bad := overflowing(lines, 80); len(bad) > 0 {
			t.Errorf("%s %v: lines wider than 80 cells:\n%s\n\nthe screen:\n%s", tc.lang, tc.args, strings.Join(bad, "\n"), strings.Join(lines, "\n"))
		}
	}
}

// TestTablesOffATerminalAreWhole: piped, the tables are never cut or
// wrapped, COLUMNS or not: one line a row, every rule whole.
func TestTablesOffATerminalAreWhole(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "HOME=" + t.TempDir()}
	for _, args := range [][]string{{"storage"}, {"config"}, {"config", "session"}} {
		plain, _, code := run(t, env, "", args...)
		narrow, _, _ := run(t, append(env, "COLUMNS=40"), "", args...)
		if code != 0 || narrow != plain {
			t.Fatalf("%v: exit %d; COLUMNS=40 changed the piped output:\n%s\n%s", args, code, plain, narrow)
		}
	}
	out, _, _ := run(t, env, "", "storage")
	if !strings.Contains(out, "-              to the trash when not updated for 90d (CHATCLI_SESSION_TTL) or beyond the 600 newest (CHATCLI_SESSION_AUTOSAVE_KEEP); never while open\n") {
		t.Fatalf("a rule cut:\n%s", out)
	}
	out, _, _ = run(t, env, "/config\n")
	if !strings.Contains(out, "\nBEDROCK_REGION                  AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1      default\n") {
		t.Fatalf("/config piped:\n%s", out)
	}
}
