// Package slacktest is Slack for tests, on 127.0.0.1: a Web API server
// answering chat.postMessage as Slack does (form-encoded request, token as
// a form field or a Bearer header, {"ok":…} answers, 429 with Retry-After
// when told to), and Events API requests signed as Slack signs them
// (v0 HMAC-SHA256 of "v0:<timestamp>:<body>" with the signing secret).
package slacktest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
)

// Post is one chat.postMessage the bot made.
type Post struct {
	Channel, Text string
	// Blocks is the blocks field as sent (JSON).
	Blocks string
}

// Server is the fake Web API.
type Server struct {
	*httptest.Server
	token string

	gatewaytest.Board
	posts []Post
	// RateLimit is how many of the next posts get 429 Too Many Requests.
	RateLimit int
}

// New starts a Web API for bot token; Close it when done.
func New(token string) *Server {
	s := &Server{token: token}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// APIURL is the Web API root to give the client (slack.OptionAPIURL).
func (s *Server) APIURL() string { return s.URL + "/api/" }

// Posts returns the posts so far.
func (s *Server) Posts() []Post {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]Post(nil), s.posts...)
}

// WaitPosts waits until n posts arrived (false after timeout).
func (s *Server) WaitPosts(n int, timeout time.Duration) bool {
	return s.Wait(timeout, func() bool { return len(s.posts) >= n })
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != "/api/chat.postMessage" || r.Method != http.MethodPost || r.ParseForm() != nil {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "unknown_method"})
		return
	}
	token := r.PostForm.Get("token")
	if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		token = b
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	switch {
	case token != s.token:
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "invalid_auth"})
		return
	case s.RateLimit > 0:
		s.RateLimit--
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "ratelimited"})
		return
	case r.PostForm.Get("channel") == "":
		json.NewEncoder(w).Encode(map[string]any{"ok": false, "error": "channel_not_found"})
		return
	}
	s.posts = append(s.posts, Post{Channel: r.PostForm.Get("channel"), Text: r.PostForm.Get("text"), Blocks: r.PostForm.Get("blocks")})
	s.Changed()
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "channel": r.PostForm.Get("channel"), "ts": fmt.Sprintf("1700000000.%06d", len(s.posts))})
}

// Sign sets the headers Slack signs body with at time at.
func Sign(h http.Header, secret string, body []byte, at time.Time) {
	ts := strconv.FormatInt(at.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + ts + ":"))
	mac.Write(body)
	h.Set("X-Slack-Request-Timestamp", ts)
	h.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	h.Set("Content-Type", "application/json")
}

// DirectMessage is an event_callback body of a message.im event from user
// in channel with text, event id eventID.
func DirectMessage(eventID, user, channel, text string) []byte {
	body, _ := json.Marshal(map[string]any{
		"token": "legacy", "team_id": "T1", "api_app_id": "A1", "type": "event_callback", "event_id": eventID, "event_time": time.Now().Unix(),
		"event": map[string]any{"type": "message", "channel_type": "im", "user": user, "channel": channel, "text": text,
			"ts": "1700000000.000100", "event_ts": "1700000000.000100"},
	})
	return body
}

// Mention is an event_callback body of an app_mention of bot by user.
func Mention(eventID, bot, user, channel, text string) []byte {
	body, _ := json.Marshal(map[string]any{
		"token": "legacy", "team_id": "T1", "api_app_id": "A1", "type": "event_callback", "event_id": eventID, "event_time": time.Now().Unix(),
		"event": map[string]any{"type": "app_mention", "user": user, "channel": channel, "text": "<@" + bot + "> " + text,
			"ts": "1700000000.000200", "event_ts": "1700000000.000200"},
	})
	return body
}
