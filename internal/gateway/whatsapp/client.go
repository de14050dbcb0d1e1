package whatsapp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client sends messages through the Graph API.
type Client struct {
	// GraphURL is the Graph API root with its version
	// (CHATCLI_WHATSAPP_GRAPH_URL, e.g. https://graph.facebook.com/v21.0).
	GraphURL string
	// PhoneID is the id of the number messages are sent from
	// (CHATCLI_WHATSAPP_PHONE_ID).
	PhoneID string
	// Token is the access token (CHATCLI_WHATSAPP_ACCESS_TOKEN).
	Token string
	// HTTP sends the requests; nil is a client with a 30 s timeout.
	HTTP *http.Client
}

// GraphError is an error answer of the Graph API.
type GraphError struct {
	// Status is the HTTP status.
	Status int
	// Message and Code are the error object's message and code.
	Message string
	Code    int
}

func (e *GraphError) Error() string {
	return fmt.Sprintf("whatsapp: Graph API %d: %s (code %d)", e.Status, e.Message, e.Code)
}

// SendText sends body to the WhatsApp number to.
func (c *Client) SendText(ctx context.Context, to, body string) error {
	return c.post(ctx, map[string]any{"messaging_product": "whatsapp", "recipient_type": "individual", "to": to,
		"type": "text", "text": map[string]any{"preview_url": false, "body": body}})
}

// Typing marks message id read and shows the typing indicator to its
// sender (for up to 25 seconds or until the reply).
func (c *Client) Typing(ctx context.Context, messageID string) error {
	return c.post(ctx, map[string]any{"messaging_product": "whatsapp", "status": "read", "message_id": messageID,
		"typing_indicator": map[string]any{"type": "text"}})
}

func (c *Client) post(ctx context.Context, payload map[string]any) error {
	data, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	url := strings.TrimRight(c.GraphURL, "/") + "/" + c.PhoneID + "/messages"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("whatsapp: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("whatsapp: %w", err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	var e struct {
		Error struct {
			Message string `json:"message"`
			Code    int    `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(answer, &e) // a body that is not JSON leaves the message empty
	if e.Error.Message == "" {
		e.Error.Message = http.StatusText(resp.StatusCode)
	}
	return &GraphError{Status: resp.StatusCode, Message: e.Error.Message, Code: e.Error.Code}
}
