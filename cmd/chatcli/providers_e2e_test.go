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
	for _, args := range [][]string{{"session", "list"}, {"session", "show", "demo"}, {"session", "export", "demo", "md"},
		{"session", "search", "hello"}, {"storage"}} {
		if out, errOut, code := run(t, env, "", args...); code != 0 || out == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	_, errOut, code := run(t, env, "", "-p", "x")
	if code != exitUsage || !strings.Contains(errOut, `"copilot"`) || !strings.Contains(errOut, "ANTHROPIC") || !strings.Contains(errOut, "OLLAMA") {
		t.Errorf("-p: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, []string{home, "LLM_PROVIDER=bedrock"}, "", "-p", "x"); code != exitUsage || !strings.Contains(errOut, "not supported yet") {
		t.Errorf("bedrock: exit %d, stderr %q", code, errOut)
	}
	if _, errOut, code := run(t, []string{home, "LLM_PROVIDER=XAI"}, "", "-p", "x"); code != exitUsage || !strings.Contains(errOut, "XAI_API_KEY is not set") {
		t.Errorf("xai without key: exit %d, stderr %q", code, errOut)
	}
}

// TestOllamaPresetThenAnotherProviderOnTheSameSession: LLM_PROVIDER=OLLAMA
// talks to OLLAMA_BASE_URL's OpenAI-compatible endpoint with OLLAMA_MODEL;
// the session it wrote continues on Anthropic (CLAUDEAI_API_KEY), then on
// Gemini (GEMINI_API_KEY).
func TestOllamaPresetThenAnotherProviderOnTheSameSession(t *testing.T) {
	home := "CHATCLI_HOME=" + t.TempDir()
	ollama := providertest.NewOpenAI(t, providertest.Reply{Text: "hi from ollama"})
	env := []string{home, "LLM_PROVIDER=ollama", "OLLAMA_BASE_URL=" + ollama.URL, "OLLAMA_MODEL=qwen3"}
	out, errOut, code := run(t, env, "", "-p", "hello", "--session", "mixed")
	if code != 0 || !strings.Contains(out, "hi from ollama") {
		t.Fatalf("ollama: exit %d, out %q, stderr %q", code, out, errOut)
	}
	if body := string(ollama.Body(0)); !strings.Contains(body, `"model":"qwen3"`) {
		t.Errorf("request %s", body)
	}
	claude := providertest.NewAnthropic(t, providertest.Reply{Text: "hi from claude"})
	env = []string{home, "LLM_PROVIDER=CLAUDEAI", "CLAUDEAI_API_KEY=k", "ANTHROPIC_BASE_URL=" + claude.URL}
	out, errOut, code = run(t, env, "", "-p", "and now?", "--session", "mixed")
	if code != 0 || !strings.Contains(out, "hi from claude") {
		t.Fatalf("claude: exit %d, out %q, stderr %q", code, out, errOut)
	}
	if body := string(claude.Body(0)); !strings.Contains(body, "hi from ollama") {
		t.Errorf("the history did not reach Anthropic: %s", body)
	}
	gem := providertest.NewGemini(t, providertest.Reply{Text: "hi from gemini"})
	env = []string{home, "LLM_PROVIDER=GEMINI", "GEMINI_API_KEY=k", "GOOGLEAI_BASE_URL=" + gem.URL}
	out, errOut, code = run(t, env, "", "-p", "and you?", "--session", "mixed")
	if code != 0 || !strings.Contains(out, "hi from gemini") {
		t.Fatalf("gemini: exit %d, out %q, stderr %q", code, out, errOut)
	}
	if body := string(gem.Body(0)); !strings.Contains(body, "hi from claude") || !strings.Contains(body, "hi from ollama") {
		t.Errorf("the history did not reach Gemini: %s", body)
	}
}
