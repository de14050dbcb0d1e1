package main

import (
	"strings"
	"testing"
)

// TestResumeSpeaksTheUsersLanguage: `chatcli --resume NAME` reports the
// load as /session load does, in the user's language.
func TestResumeSpeaksTheUsersLanguage(t *testing.T) {
	home := t.TempDir()
	if _, errOut, code := run(t, []string{"CHATCLI_HOME=" + home}, "hello\n/session save md\n"); code != 0 {
		t.Fatalf("save: exit %d\n%s", code, errOut)
	}
	for lang, want := range map[string]string{
		"pt-BR": "Sessão 'md' carregada. A conversa anterior foi restaurada.\n",
		"en":    "Loaded session \"md\" (2 messages).\n",
	} {
		_, errOut, code := run(t, []string{"CHATCLI_HOME=" + home, "CHATCLI_LANG=" + lang}, "", "--resume", "md")
		if code != 0 || !strings.HasPrefix(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q, want it to begin with %q", lang, code, errOut, want)
		}
	}
}
