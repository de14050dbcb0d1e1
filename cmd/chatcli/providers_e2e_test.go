package main

import (
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// TestUnservableProviderStopsOnlyWhatNeedsAProvider: with LLM_PROVIDER set
// to a provider chatcli cannot serve, the session and storage commands
// work, and a prompt fails with one line naming the providers it serves.
func TestUnservableProviderStopsOnlyWhatNeedsAProvider(t *testing.T) {
	home := "CHATCLI_HOME=" + t.TempDir()
	if _, errOut, code := run(t, []string{home}, "hello there\n/session save demo\n"); code != 0 {
		t.Fatalf("setup: %d %s", code, errOut)
	}
	env := []string{home, "LLM_PROVIDER=COPILOT"}
	dir := t.TempDir() // the export's file goes there
	for _, args := range [][]string{{"session", "list"}, {"session", "show", "demo"}, {"session", "export", "demo", "md"},
		{"session", "search", "hello"}, {"storage"}} {
		if out, errOut, code := runAt(t, dir, env, "", args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	_, errOut, code := run(t, env, "", "-p", "x")
	if code != exitUsage || !strings.Contains(errOut, `"copilot"`) || !strings.Contains(errOut, "ANTHROPIC") || !strings.Contains(errOut, "OLLAMA") {
		t.Errorf("-p: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, []string{home, "LLM_PROVIDER=bedrock"}, "", "-p", "x"); code != exitUsage ||
		!strings.Contains(errOut, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_BEARER_TOKEN_BEDROCK) are not set") {
		t.Errorf("bedrock without credentials: exit %d, stderr %q", code, errOut)
	} else if strings.Count(errOut, "invalid setting") != 1 {
		t.Errorf("bedrock without credentials: the error says \"invalid setting\" more than once: %q", errOut)
	}
	if _, errOut, code := run(t, []string{home, "LLM_PROVIDER=BEDROCK", "AWS_PROFILE=work"}, "", "-p", "x"); code != exitUsage ||
		!strings.Contains(errOut, "aws configure export-credentials --profile work --format env") {
		t.Errorf("bedrock with a profile: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, []string{home, "LLM_PROVIDER=XAI"}, "", "-p", "x"); code != exitUsage || !strings.Contains(errOut, "XAI_API_KEY is not set") {
		t.Errorf("xai without key: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, []string{home, "LLM_PROVIDER=GEMINI"}, "", "-p", "x"); code != exitUsage || !strings.Contains(errOut, "GOOGLEAI_API_KEY or GEMINI_API_KEY is not set") {
		t.Errorf("gemini without key: exit %d, stderr %q", code, errOut)
	}
}

// TestOllamaPresetThenAnotherProviderOnTheSameSession: LLM_PROVIDER=OLLAMA
// talks to OLLAMA_BASE_URL's OpenAI-compatible endpoint with OLLAMA_MODEL;
// the session it wrote continues on Anthropic (CLAUDEAI_API_KEY), then on
// Gemini (GEMINI_API_KEY).
func TestOllamaPresetThenAnotherProviderOnTheSameSession(t *testing.T) {
	home := "CHATCLI_HOME=" + t.TempDir()
	ollama := providertest.NewOpenAI(t, providertest.Reply{Text: "hi from ollama"})
	claude := providertest.NewAnthropic(t, providertest.Reply{Text: "hi from claude"})
	gem := providertest.NewGemini(t, providertest.Reply{Text: "hi from gemini"})
	bed := providertest.NewBedrock(t, "eu-central-1", "AKIDE2E", "e2e-secret", "", providertest.Reply{Text: "hi from bedrock"})
	var said []string
	for _, step := range []struct {
		env   []string
		fake  *providertest.Server
		reply string
	}{
		{[]string{"LLM_PROVIDER=ollama", "OLLAMA_BASE_URL=" + ollama.URL, "OLLAMA_MODEL=qwen3"}, ollama, "hi from ollama"},
		{[]string{"LLM_PROVIDER=CLAUDEAI", "CLAUDEAI_API_KEY=k", "ANTHROPIC_BASE_URL=" + claude.URL}, claude, "hi from claude"},
		{[]string{"LLM_PROVIDER=GEMINI", "GEMINI_API_KEY=k", "GOOGLEAI_BASE_URL=" + gem.URL}, gem, "hi from gemini"},
		{[]string{"LLM_PROVIDER=BEDROCK", "AWS_ACCESS_KEY_ID=AKIDE2E", "AWS_SECRET_ACCESS_KEY=e2e-secret", "AWS_REGION=eu-central-1",
			"BEDROCK_MODEL=eu.anthropic.claude-test-v1:0", "BEDROCK_BASE_URL=" + bed.URL}, bed.Server, "hi from bedrock"},
	} {
		out, errOut, code := run(t, append([]string{home}, step.env...), "", "-p", "and now?", "--session", "mixed")
		if code != 0 || !strings.Contains(out, step.reply) {
			t.Fatalf("%v: exit %d, out %q, stderr %q", step.env, code, out, errOut)
		}
		body := string(step.fake.Body(0))
		for _, earlier := range said {
			if !strings.Contains(body, earlier) {
				t.Errorf("%v: the history (%q) did not reach it: %s", step.env, earlier, body)
			}
		}
		said = append(said, step.reply)
	}
	if body := string(ollama.Body(0)); !strings.Contains(body, `"model":"qwen3"`) {
		t.Errorf("OLLAMA_MODEL not used: %s", body)
	}
	if m := bed.Models(); len(m) != 1 || m[0] != "eu.anthropic.claude-test-v1:0" {
		t.Errorf("BEDROCK_MODEL not in the path: %q", m)
	}
}

// TestBedrockSettingsAreShownWithoutSecrets: chatcli config lists the
// Bedrock and AWS variables with their sources, the credentials as set,
// never their values; BEDROCK_REGION wins over AWS_REGION.
func TestBedrockSettingsAreShownWithoutSecrets(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "LLM_PROVIDER=bedrock", "AWS_ACCESS_KEY_ID=AKIDSHOWN", "AWS_SECRET_ACCESS_KEY=hush-hush",
		"AWS_SESSION_TOKEN=tok-tok", "BEDROCK_REGION=ap-south-1", "AWS_REGION=us-west-2"}
	out, errOut, code := run(t, env, "", "config")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, secret := range []string{"AKIDSHOWN", "hush-hush", "tok-tok"} {
		if strings.Contains(out, secret) {
			t.Errorf("chatcli config shows %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{"BEDROCK_REGION", "ap-south-1", "AWS_SECRET_ACCESS_KEY", "BEDROCK_MODEL", "global.anthropic.claude-sonnet-4-6", "CHATCLI_DOTENV", "XAI_API_KEY"} {
		if !strings.Contains(out, want) {
			t.Errorf("chatcli config lacks %q:\n%s", want, out)
		}
	}
	cfgOut, _, _ := run(t, env, "", "config", "session")
	if !strings.Contains(cfgOut, "bedrock") || !strings.Contains(cfgOut, "BEDROCK_MODEL") {
		t.Errorf("chatcli config session:\n%s", cfgOut)
	}
}

// TestPresetErrorsNameThePreset: an error of a provider reached through a
// preset names the preset the person chose, not the API it speaks.
func TestPresetErrorsNameThePreset(t *testing.T) {
	env := []string{"CHATCLI_HOME=" + t.TempDir(), "LLM_PROVIDER=OLLAMA", "OLLAMA_BASE_URL=http://127.0.0.1:1/v1"}
	_, errOut, code := run(t, env, "", "-p", "hello")
	if code != exitProvider || !strings.Contains(errOut, "ollama: cannot connect") || strings.Contains(errOut, "openai:") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// TestVerbsThatSendNothingNeedNoProvider: fork and rewind --list work with
// a provider configured without its key, or not servable at all.
func TestVerbsThatSendNothingNeedNoProvider(t *testing.T) {
	home := "CHATCLI_HOME=" + t.TempDir()
	if _, errOut, code := run(t, []string{home}, "", "-p", "hello", "--session", "src"); code != 0 {
		t.Fatalf("setup: exit %d: %s", code, errOut)
	}
	for _, tt := range []struct {
		env  string
		args []string
	}{
		{"LLM_PROVIDER=OPENAI", []string{"session", "fork", "src", "dst"}},
		{"LLM_PROVIDER=NOSUCH", []string{"session", "fork", "src", "dst2"}},
		{"LLM_PROVIDER=CLAUDEAI", []string{"session", "rewind", "src", "--list"}},
	} {
		if out, errOut, code := run(t, []string{home, tt.env}, "", tt.args...); code != 0 {
			t.Errorf("%s %v: exit %d\n%s%s", tt.env, tt.args, code, out, errOut)
		}
	}
}
