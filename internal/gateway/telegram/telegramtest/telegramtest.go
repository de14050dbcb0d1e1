// Package telegramtest is a Telegram Bot API server on 127.0.0.1 for tests:
// getMe, getUpdates (long polling, with Telegram's offset semantics: an
// update is forgotten once a getUpdates carries a higher offset),
// sendMessage and sendChatAction, form-encoded or JSON, answered in the
// Bot API's {"ok":…,"result":…} envelope; a wrong token gets 401.
package telegramtest

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Sent is one message the bot sent.
type Sent struct {
	ChatID    int64
	Text      string
	ParseMode string
}

// Server is the fake Bot API.
type Server struct {
	*httptest.Server
	token string

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced on every change
	updates   []update      // not yet confirmed
	nextID    int
	sent      []Sent
	actions   int
	polls     int
	delivered map[int]int // update_id → times returned by getUpdates
	// RejectHTML makes sendMessage with parse_mode HTML fail with 400, as
	// Telegram does for markup it cannot parse.
	RejectHTML bool
	// FailPolls is how many of the next getUpdates requests fail with 502
	// Bad Gateway (a reconnection test).
	FailPolls int
}

type update struct {
	UpdateID int     `json:"update_id"`
	Message  message `json:"message"`
}

type message struct {
	MessageID int    `json:"message_id"`
	From      user   `json:"from"`
	Chat      chat   `json:"chat"`
	Date      int64  `json:"date"`
	Text      string `json:"text"`
}

type user struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
	UserName  string `json:"username,omitempty"`
}

type chat struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
}

// New starts a server for bot token; Close it when done.
func New(token string) *Server {
	s := &Server{token: token, changed: make(chan struct{}), nextID: 100, delivered: map[int]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Push queues a text message from user in chat and returns its update_id.
func (s *Server) Push(from, chatID int64, text string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.updates = append(s.updates, update{UpdateID: s.nextID, Message: message{MessageID: s.nextID, From: user{ID: from, FirstName: "u"},
		Chat: chat{ID: chatID, Type: "private"}, Date: time.Now().Unix(), Text: text}})
	s.notify()
	return s.nextID
}

func (s *Server) notify() { close(s.changed); s.changed = make(chan struct{}) }

// Sent returns the messages sent so far.
func (s *Server) Sent() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// Actions is how many sendChatAction calls arrived.
func (s *Server) Actions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.actions
}

// Delivered reports how many times getUpdates returned update id.
func (s *Server) Delivered(id int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delivered[id]
}

// WaitSent waits until n messages were sent (false after timeout).
func (s *Server) WaitSent(n int, timeout time.Duration) bool {
	return s.wait(timeout, func() bool { return len(s.sent) >= n })
}

// WaitPolls waits until n getUpdates requests arrived.
func (s *Server) WaitPolls(n int, timeout time.Duration) bool {
	return s.wait(timeout, func() bool { return s.polls >= n })
}

func (s *Server) wait(timeout time.Duration, done func() bool) bool {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		ok, ch := done(), s.changed
		s.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot"+s.token+"/")
	if !ok || r.Method != http.MethodPost {
		answer(w, http.StatusUnauthorized, false, nil, "Unauthorized")
		return
	}
	params, err := readParams(r)
	if err != nil {
		answer(w, http.StatusBadRequest, false, nil, "Bad Request: "+err.Error())
		return
	}
	switch rest {
	case "getMe":
		answer(w, 200, true, user{ID: 1, IsBot: true, FirstName: "chatcli", UserName: "chatcli_test_bot"}, "")
	case "getUpdates":
		s.getUpdates(w, r, params)
	case "sendMessage":
		s.sendMessage(w, params)
	case "sendChatAction":
		s.mu.Lock()
		s.actions++
		s.notify()
		s.mu.Unlock()
		answer(w, 200, true, true, "")
	default:
		answer(w, http.StatusNotFound, false, nil, "Not Found: method not found")
	}
}

func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) {
	offset, _ := strconv.Atoi(p["offset"])
	timeout, _ := strconv.Atoi(p["timeout"])
	deadline := time.After(time.Duration(timeout) * time.Second)
	s.mu.Lock()
	s.polls++
	s.notify()
	if s.FailPolls > 0 {
		s.FailPolls--
		s.mu.Unlock()
		answer(w, http.StatusBadGateway, false, nil, "Bad Gateway")
		return
	}
	for {
		kept := s.updates[:0]
		for _, u := range s.updates {
			if offset == 0 || u.UpdateID >= offset {
				kept = append(kept, u)
			}
		}
		s.updates = kept
		if len(s.updates) > 0 || timeout == 0 {
			break
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			s.mu.Lock()
			answer(w, 200, true, []update{}, "")
			s.mu.Unlock()
			return
		case <-r.Context().Done():
			return
		}
		s.mu.Lock()
	}
	out := append([]update(nil), s.updates...)
	for _, u := range out {
		s.delivered[u.UpdateID]++
	}
	s.mu.Unlock()
	answer(w, 200, true, out, "")
}

func (s *Server) sendMessage(w http.ResponseWriter, p map[string]string) {
	id, err := strconv.ParseInt(p["chat_id"], 10, 64)
	if err != nil || p["text"] == "" {
		answer(w, http.StatusBadRequest, false, nil, "Bad Request: chat_id and text are required")
		return
	}
	if p["parse_mode"] == "HTML" && s.RejectHTML {
		answer(w, http.StatusBadRequest, false, nil, "Bad Request: can't parse entities")
		return
	}
	if n := len([]rune(p["text"])); n > 4096*2 { // HTML tags do not count; a crude bound
		answer(w, http.StatusBadRequest, false, nil, "Bad Request: message is too long")
		return
	}
	s.mu.Lock()
	s.sent = append(s.sent, Sent{ChatID: id, Text: p["text"], ParseMode: p["parse_mode"]})
	n := len(s.sent)
	s.notify()
	s.mu.Unlock()
	answer(w, 200, true, message{MessageID: 1000 + n, Chat: chat{ID: id, Type: "private"}, Date: time.Now().Unix(), Text: p["text"]}, "")
}

// readParams reads a Bot API request's parameters: a form (urlencoded or
// multipart) or a JSON object.
func readParams(r *http.Request) (map[string]string, error) {
	out := map[string]string{}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		var m map[string]any
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			return nil, err
		}
		for k, v := range m {
			out[k] = fmt.Sprint(v)
		}
		return out, nil
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil && err != http.ErrNotMultipart {
		return nil, err
	}
	for k, v := range r.Form {
		out[k] = v[0]
	}
	return out, nil
}

func answer(w http.ResponseWriter, code int, ok bool, result any, desc string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	body := map[string]any{"ok": ok}
	if ok {
		body["result"] = result
	} else {
		body["error_code"], body["description"] = code, desc
	}
	json.NewEncoder(w).Encode(body)
}
