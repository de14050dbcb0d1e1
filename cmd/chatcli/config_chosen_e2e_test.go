package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestConfigShowsTheModelTheNextTurnUses: after /model and /switch, /config
// and /config session show the provider and model the next turn uses,
// said to come from this session with the source they replaced, in
// English and in Portuguese; switching back shows the settings' own.
func TestConfigShowsTheModelTheNextTurnUses(t *testing.T) {
	srv, _ := markerServer(t, "never")
	base := []string{"CHATCLI_HOME=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	script := "/model other\n/config\n/switch offline\n/config session\n/switch openai\n/config session\n"
	for _, tc := range []struct {
		lang                           string
		model, provider, back, session string
	}{
		{"en", `OPENAI_MODEL\s+other\s+this session \(/model; was: environment\)\n`,
			`LLM_PROVIDER\s+offline\s+this session \(/switch; was: detected from the API settings\)\n`,
			`LLM_PROVIDER\s+openai\s+detected from the API settings\n(.*\n)*OPENAI_MODEL\s+m\s+environment\n`, "bound session"},
		{"pt-BR", `OPENAI_MODEL\s+other\s+nesta sessão \(/model; antes: ambiente\)\n`,
			`LLM_PROVIDER\s+offline\s+nesta sessão \(/switch; antes: detectado pelas configurações da API\)\n`,
			`LLM_PROVIDER\s+openai\s+detectado pelas configurações da API\n(.*\n)*OPENAI_MODEL\s+m\s+ambiente\n`, "sessão vinculada"},
	} {
		out, errOut, code := run(t, append(base, "CHATCLI_LANG="+tc.lang), script)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", tc.lang, code, errOut)
		}
		parts := strings.Split(out, tc.session) // after each /config session
		if len(parts) != 3 {
			t.Fatalf("%s: %q twice expected:\n%s", tc.lang, tc.session, out)
		}
		for _, c := range []struct{ re, in string }{{tc.model, parts[0]}, {tc.provider, parts[0]}, {tc.back, parts[1]}} {
			if !regexp.MustCompile(c.re).MatchString(c.in) {
				t.Errorf("%s: %s missing from:\n%s", tc.lang, c.re, c.in)
			}
		}
	}
	out, _, _ := run(t, base, "/config\n", "--model", "flagged")
	if !regexp.MustCompile(`OPENAI_MODEL\s+flagged\s+command line \(--model; was: environment\)\n`).MatchString(out) {
		t.Errorf("--model:\n%s", out)
	}
}
