package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestConfigFile: settings in ~/.config/chatcli/config.toml reach the
// provider, the environment overrides them, `chatcli config` names each
// source, and a bad file is an error naming its line.
func TestConfigFile(t *testing.T) {
	srv, seen := markerServer(t, "never")
	home := t.TempDir()
	path := filepath.Join(home, ".config", "chatcli", "config.toml")
	base := []string{"HOME=" + home, "CHATCLI_HOME=" + t.TempDir()}

	out, errOut, code := run(t, base, "", "config", "path")
	if code != 0 || strings.TrimSpace(out) != path {
		t.Fatalf("config path: %q %s", out, errOut)
	}
	if out, errOut, code = run(t, base, "", "config", "init"); code != 0 || !strings.Contains(out, path) {
		t.Fatalf("config init: exit %d %s%s", code, out, errOut)
	}
	if _, errOut, code = run(t, base, "", "config", "init"); code != exitUsage || !strings.Contains(errOut, "--force") {
		t.Fatalf("config init over a file: exit %d %s", code, errOut)
	}
	tpl, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(tpl), "# session_ttl = ") {
		t.Fatalf("template: %v\n%s", err, tpl)
	}
	body := string(tpl) + "\nopenai_base_url = \"" + srv.URL + "/v1\"\nopenai_model = \"from-file\"\nsession_ttl = \"30d\"\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code = run(t, base, "", "-p", "hello"); code != 0 || out != "ok: hello\n" {
		t.Fatalf("-p with the file's provider: exit %d %q %s", code, out, errOut)
	}
	if len(seen()) != 1 {
		t.Fatalf("the file's OPENAI_BASE_URL was not used: %d requests", len(seen()))
	}
	out, _, _ = run(t, append(base, "OPENAI_MODEL=from-env"), "", "config")
	lines := strings.Count(body, "\n")
	for _, want := range []string{
		`OPENAI_MODEL\s+from-env\s+environment`,
		`CHATCLI_SESSION_TTL\s+30d\s+` + regexp.QuoteMeta(path) + `:` + strconv.Itoa(lines),
		`OPENAI_BASE_URL\s+http://127\.0\.0\.1:\d+/v1\s+` + regexp.QuoteMeta(path) + `:\d+`,
		`OPENAI_API_KEY\s+not set\s+default`,
		`CHATCLI_AGENT_MAX_STEPS\s+25\s+default`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("chatcli config lacks %s:\n%s", want, out)
		}
	}

	if err := os.WriteFile(path, []byte("session_ttl = \"30d\"\nsesion_autosave = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = run(t, base, "", "session", "list")
	if code != exitUsage || !strings.Contains(errOut, path+":2") || !strings.Contains(errOut, "sesion_autosave") {
		t.Fatalf("a bad file: exit %d %s", code, errOut)
	}
}
