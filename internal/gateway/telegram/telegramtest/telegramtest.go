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
	"time"

	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
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

	gatewaytest.Board
	updates   []update // not yet confirmed
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
	s := &Server{token: token, nextID: 100, delivered: map[int]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Push queues a text message from user in chat and returns its update_id.
func (s *Server) Push(from, chatID int64, text string) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.nextID++
	s.updates = append(s.updates, update{UpdateID: s.nextID, Message: message{MessageID: s.nextID, From: user{ID: from, FirstName: "u"},
		Chat: chat{ID: chatID, Type: "private"}, Date: time.Now().Unix(), Text: text}})
	s.Changed()
	return s.nextID
}

// Sent returns the messages sent so far.
func (s *Server) Sent() []Sent {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// Actions is how many sendChatAction calls arrived.
func (s *Server) Actions() int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.actions
}

// Delivered reports how many times getUpdates returned update id.
func (s *Server) Delivered(id int) int {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return s.delivered[id]
}

// WaitSent waits until n messages were sent (false after timeout).
func (s *Server) WaitSent(n int, timeout time.Duration) bool {
	return s.Wait(timeout, func() bool { return len(s.sent) >= n })
}

// WaitPolls waits until n getUpdates requests arrived.
func (s *Server) WaitPolls(n int, timeout time.Duration) bool {
	return s.Wait(timeout, func() bool { return s.polls >= n })
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
		s.Mu.Lock()
		s.actions++
		s.Changed()
		s.Mu.Unlock()
		answer(w, 200, true, true, "")
	default:
		answer(w, http.StatusNotFound, false, nil, "Not Found: method not found")
	}
}

func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]string) {
	offset, _ := strconv.Atoi(p["offset"])
	timeout, _ := strconv.Atoi(p["timeout"])
	deadline := time.After(time.Duration(timeout) * time.Second)
	s.Mu.Lock()
	s.polls++
	s.Changed()
	if s.FailPolls > 0 {
		s.FailPolls--
		s.Mu.Unlock()
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
		ch := s.Next()
		s.Mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			s.Mu.Lock()
			answer(w, 200, true, []update{}, "")
			s.Mu.Unlock()
			return
		case <-r.Context().Done():
			return
		}
		s.Mu.Lock()
	}
	out := append([]update(nil), s.updates...)
	for _, u := range out {
		s.delivered[u.UpdateID]++
	}
	s.Mu.Unlock()
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
	s.Mu.Lock()
	s.sent = append(s.sent, Sent{ChatID: id, Text: p["text"], ParseMode: p["parse_mode"]})
	n := len(s.sent)
	s.Changed()
	s.Mu.Unlock()
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
