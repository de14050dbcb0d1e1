package gatewaytest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/provider/openai"
	"github.com/chatcli/chatcli/internal/provider/providertest"
)

// Model is an OpenAI chat completions server on 127.0.0.1 (providertest's
// strict fake, answering "ok") in front of which every request whose body
// holds the text Hold waits until Release is called: a slow turn a test
// controls.
type Model struct {
	*httptest.Server
	Board
	hold    []byte
	release chan struct{}
	once    sync.Once
	bodies  [][]byte // in arrival order
	held    int
}

// NewModel starts a Model holding the requests that contain hold; it is
// closed (and released) when t ends.
func NewModel(t testing.TB, hold string) *Model {
	fake := providertest.NewOpenAI(t)
	u, _ := url.Parse(fake.URL)
	proxy := httputil.NewSingleHostReverseProxy(u)
	m := &Model{hold: []byte(hold), release: make(chan struct{})}
	m.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		m.Mu.Lock()
		m.bodies = append(m.bodies, body)
		held := bytes.Contains(body, m.hold)
		if held {
			m.held++
		}
		m.Changed()
		m.Mu.Unlock()
		if held {
			select {
			case <-m.release:
			case <-r.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { m.Release(); m.Close() })
	return m
}

// Provider is the OpenAI client of m.
func (m *Model) Provider(t testing.TB) provider.Provider {
	p, err := openai.New(openai.Config{BaseURL: m.URL + "/v1", Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Release lets every held request, and those to come, through.
func (m *Model) Release() { m.once.Do(func() { close(m.release) }) }

// WaitHeld waits until n requests are held (false after timeout).
func (m *Model) WaitHeld(n int, timeout time.Duration) bool {
	return m.Wait(timeout, func() bool { return m.held >= n })
}

// Bodies returns the request bodies so far, in arrival order.
func (m *Model) Bodies() [][]byte {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	return append([][]byte(nil), m.bodies...)
}
