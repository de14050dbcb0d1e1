package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// markerServer is a strict chat-completions server (SSE streaming): it
// rejects, with the HTTP 400 of a content filter, the first request whose
// last prompt holds marker, and any request holding two user messages in
// a row; other requests get "ok: PROMPT". It records each request's user
// messages.
func markerServer(t *testing.T, marker string) (*httptest.Server, func() [][]string) {
	var mu sync.Mutex
	var seen [][]string
	failed := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("request: %v", err)
		}
		var users []string
		for i, m := range req.Messages {
			if m.Role == "user" {
				users = append(users, m.Content)
				if i > 0 && req.Messages[i-1].Role == "user" {
					http.Error(w, `{"error":{"message":"two user messages in a row","type":"invalid_request_error"}}`, 400)
					return
				}
			}
		}
		mu.Lock()
		seen = append(seen, users)
		fail := !failed && strings.Contains(users[len(users)-1], marker)
		failed = failed || fail
		mu.Unlock()
		if fail {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprint(w, `{"error":{"message":"content filtered","type":"invalid_request_error","code":"content_filter"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		text, _ := json.Marshal("ok: " + users[len(users)-1])
		fmt.Fprintf(w, "data: {\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", text)
		fmt.Fprint(w, "data: {\"id\":\"1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, func() [][]string { mu.Lock(); defer mu.Unlock(); return append([][]string(nil), seen...) }
}

// TestAFailedPromptDoesNotPoisonTheNext: after a content-filter failure
// the next prompt's request does not hold the failed text, the error line
// names /retry and /rewind, and /retry sends the failed prompt again.
func TestAFailedPromptDoesNotPoisonTheNext(t *testing.T) {
	srv, seen := markerServer(t, "FORBIDDEN")
	home := t.TempDir()
	env := []string{"CHATCLI_HOME=" + home, "OPENAI_BASE_URL=" + srv.URL + "/v1", "OPENAI_MODEL=m"}
	out, errOut, _ := run(t, env, "hello\nFORBIDDEN words\nnext one\n/retry\n/retry\n/session save r\n")
	if !strings.Contains(out, "ok: hello") || !strings.Contains(out, "ok: next one") || !strings.Contains(out, "ok: FORBIDDEN words") {
		t.Fatalf("replies:\n%s\nstderr:\n%s", out, errOut)
	}
	if strings.Contains(out+errOut, "waiting for the model") {
		t.Fatalf("a spinner was drawn on a pipe:\n%s%s", out, errOut)
	}
	if !strings.Contains(errOut, "content filtered") || !strings.Contains(errOut, "/retry resends it") || !strings.Contains(errOut, "/rewind") {
		t.Fatalf("the error line does not say what became of the prompt:\n%s", errOut)
	}
	reqs := seen()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4: %q", len(reqs), reqs)
	}
	for _, u := range reqs[2] { // "next one"
		if strings.Contains(u, "FORBIDDEN") {
			t.Fatalf("the failed prompt was sent again with the next one: %q", reqs[2])
		}
	}
	if last := reqs[3]; last[len(last)-1] != "FORBIDDEN words" {
		t.Fatalf("/retry sent %q", last)
	}
	// The first /retry was answered, so the second has nothing to resend.
	if !strings.Contains(errOut, "nothing to resend") {
		t.Fatalf("a second /retry:\n%s", errOut)
	}
	show, _, code := run(t, env, "", "session", "show", "r", "--json")
	compact := strings.ReplaceAll(show, " ", "")
	if code != 0 || strings.Count(compact, `"content":"FORBIDDENwords"`) != 2 || !strings.Contains(compact, `"unanswered":true`) {
		t.Fatalf("the saved session should keep the failed prompt, marked, and the resent one:\n%s", show)
	}
}
