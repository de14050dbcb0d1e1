// Package whatsapptest is WhatsApp's Cloud API for tests, on 127.0.0.1: the
// Graph API's POST /<version>/<phone-number-id>/messages (Bearer token,
// JSON body, Meta's answers and error objects), and webhook notifications
// built and signed (X-Hub-Signature-256) as Meta sends them.
package whatsapptest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/chatcli/chatcli/internal/gateway/gatewaytest"
)

// Version is the Graph API version the server answers under.
const Version = "v21.0"

// Sent is one text message the bot sent.
type Sent struct{ To, Body string }

// Server is the fake Graph API for one phone number id.
type Server struct {
	*httptest.Server
	token, phoneID string

	gatewaytest.Board
	sent   []Sent
	typing []string // message ids marked read with a typing indicator
}

// New starts the Graph API for access token and phone number id.
func New(token, phoneID string) *Server {
	s := &Server{token: token, phoneID: phoneID}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// GraphURL is the root to configure (CHATCLI_WHATSAPP_GRAPH_URL).
func (s *Server) GraphURL() string { return s.URL + "/" + Version }

// Sent returns the text messages sent so far.
func (s *Server) Sent() []Sent {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]Sent(nil), s.sent...)
}

// Typing returns the message ids a typing indicator was shown for.
func (s *Server) Typing() []string {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	return append([]string(nil), s.typing...)
}

// WaitSent waits until n messages were sent (false after timeout).
func (s *Server) WaitSent(n int, timeout time.Duration) bool {
	return s.Wait(timeout, func() bool { return len(s.sent) >= n })
}

func graphError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "OAuthException", "code": code, "fbtrace_id": "AbC"}})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+s.token {
		graphError(w, http.StatusUnauthorized, 190, "Invalid OAuth access token - Cannot parse access token")
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/"+Version+"/"+s.phoneID+"/messages" {
		graphError(w, http.StatusBadRequest, 100, "Unsupported post request")
		return
	}
	var m struct {
		Product   string `json:"messaging_product"`
		To        string `json:"to"`
		Type      string `json:"type"`
		Status    string `json:"status"`
		MessageID string `json:"message_id"`
		Text      struct {
			Body string `json:"body"`
		} `json:"text"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m.Product != "whatsapp" {
		graphError(w, http.StatusBadRequest, 100, "(#100) The parameter messaging_product is required.")
		return
	}
	s.Mu.Lock()
	defer s.Mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case m.Status == "read" && m.MessageID != "":
		s.typing = append(s.typing, m.MessageID)
		json.NewEncoder(w).Encode(map[string]any{"success": true})
	case m.Type == "text" && m.To != "" && m.Text.Body != "" && len([]rune(m.Text.Body)) <= 4096:
		s.sent = append(s.sent, Sent{To: m.To, Body: m.Text.Body})
		s.Changed()
		json.NewEncoder(w).Encode(map[string]any{"messaging_product": "whatsapp", "contacts": []any{map[string]any{"input": m.To, "wa_id": m.To}},
			"messages": []any{map[string]any{"id": fmt.Sprintf("wamid.out%d", len(s.sent))}}})
	default:
		graphError(w, http.StatusBadRequest, 100, "(#100) Invalid parameter")
	}
}

// Notification is a webhook body carrying one text message id from the
// number from to phoneID.
func Notification(phoneID, from, id, text string) []byte {
	body, _ := json.Marshal(map[string]any{"object": "whatsapp_business_account", "entry": []any{map[string]any{
		"id": "WABA1", "changes": []any{map[string]any{"field": "messages", "value": map[string]any{
			"messaging_product": "whatsapp",
			"metadata":          map[string]any{"display_phone_number": "15550000000", "phone_number_id": phoneID},
			"contacts":          []any{map[string]any{"profile": map[string]any{"name": "Ana"}, "wa_id": from}},
			"messages": []any{map[string]any{"from": from, "id": id, "timestamp": fmt.Sprint(time.Now().Unix()), "type": "text",
				"text": map[string]any{"body": text}}},
		}}},
	}}})
	return body
}

// Sign sets X-Hub-Signature-256 of body under appSecret.
func Sign(h http.Header, appSecret string, body []byte) {
	mac := hmac.New(sha256.New, []byte(appSecret))
	mac.Write(body)
	h.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	h.Set("Content-Type", "application/json")
}
