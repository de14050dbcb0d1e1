package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKill9MidTurnKeepsThePrompt: a process killed while the reply streams
// loses at most the reply; the prompt is in the journal and every journal
// line parses.
func TestKill9MidTurnKeepsThePrompt(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"partial"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	home := t.TempDir()
	cmd := exec.Command(binary, "-p", "remember this prompt", "--session", "k")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the request never arrived")
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()

	files, _ := filepath.Glob(filepath.Join(home, "transcripts", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("journals: %v", files)
	}
	f, _ := os.Open(files[0])
	defer f.Close()
	sc := bufio.NewScanner(f)
	found := false
	for sc.Scan() {
		var rec struct {
			Type    string `json:"type"`
			Message *struct {
				Role, Content string
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("journal line does not parse: %q", sc.Text())
		}
		if rec.Message != nil && rec.Message.Content == "remember this prompt" {
			found = true
		}
		if rec.Message != nil && strings.Contains(rec.Message.Content, "partial") {
			t.Fatal("a half reply was recorded")
		}
	}
	if !found {
		t.Fatal("the prompt was lost")
	}
}
