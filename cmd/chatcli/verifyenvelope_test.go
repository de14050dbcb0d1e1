package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Session files in ChatCLI's envelope are checked with ChatCLI's key:
// sound ones count as checked, one cut short is damaged, one the key does
// not open while it opens the others is damaged too (as for chatcli's own
// sealed files); without the key the one cut short is still damaged (its
// length tells it) and the others are not checked. Nothing is changed.
func TestStorageVerifyChatCLIEnvelopes(t *testing.T) {
	home := t.TempDir()
	cheapSalt(t, home)
	pass := "senha do ChatCLI"
	dir := filepath.Join(home, "sessions")
	src := "../../internal/session/testdata/chatcli-1.188.0/demo1.json"
	chatcliSeal(t, []byte(pass), src, filepath.Join(dir, "good.json"))
	chatcliSeal(t, []byte(pass), src, filepath.Join(dir, "flipped.json"))
	chatcliSeal(t, []byte(pass), src, filepath.Join(dir, "cut.json"))
	flipped := mustRead(t, filepath.Join(dir, "flipped.json"))
	flipped[len(flipped)-3] ^= 1
	os.WriteFile(filepath.Join(dir, "flipped.json"), flipped, 0o600)
	cut := mustRead(t, filepath.Join(dir, "cut.json"))[:20]
	os.WriteFile(filepath.Join(dir, "cut.json"), cut, 0o600)
	right := []string{"CHATCLI_HOME=" + home, "CHATCLI_ENCRYPTION_KEY=" + pass}

	sum, code := verifyJSON(t, right)
	if code != exitDamaged || sum.ChatCLIEnvelopes != 3 || sum.Damaged != 2 || sum.Unchecked != 0 {
		t.Fatalf("with the key: exit %d %+v", code, sum)
	}
	for _, p := range sum.Problems {
		if p.Verdict != verdictDamaged || filepath.Base(p.Path) == "good.json" {
			t.Fatalf("with the key: %+v", p)
		}
	}
	out, _, _ := run(t, right, "", "storage", "verify")
	if !strings.Contains(out, "3 of the session files in ChatCLI's envelope") || !strings.Contains(out, "flipped.json") {
		t.Fatalf("report:\n%s", out)
	}
	// Without the key, the envelope cut short is still told by its
	// length and named; the others cannot be checked.
	sum, code = verifyJSON(t, []string{"CHATCLI_HOME=" + home, "HOME=" + t.TempDir()})
	if code != exitDamaged || sum.Unchecked != 2 || sum.Damaged != 1 || sum.ChatCLIEnvelopes != 3 {
		t.Fatalf("without the key: exit %d %+v", code, sum)
	}
	for _, p := range sum.Problems {
		if (p.Verdict == verdictDamaged) != (filepath.Base(p.Path) == "cut.json") {
			t.Fatalf("without the key: %+v", p)
		}
	}
	if got := mustRead(t, filepath.Join(dir, "cut.json")); string(got) != string(cut) {
		t.Fatal("verify changed the file cut short")
	}
	if got := mustRead(t, filepath.Join(dir, "flipped.json")); string(got) != string(flipped) {
		t.Fatal("verify changed a file")
	}
}
