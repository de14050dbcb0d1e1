package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/chatcli/chatcli/internal/provider/offline"
)

// TestStdioSurvivesMalformedLinesAndAnswersBeforeEOF writes a whole
// session to stdin at once, malformed lines included, then closes it: every
// request is still answered, each bad line gets a JSON-RPC error, and Run
// returns.
func TestStdioSurvivesMalformedLinesAndAnswersBeforeEOF(t *testing.T) {
	f := &fixture{t: t, home: t.TempDir()}
	f.store = f.openStore()
	srv := New(Options{Engine: f.engine(offline.New("")), Mirror: true, ID: testID})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`not json at all`,
		``,
		`{"no":"jsonrpc"}`,
		`[]`,
		`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"chat","arguments":{"prompt":"hi"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"manage_session","arguments":{"action":"load","name":"nope"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"chat","arguments":{"prompt":"x","session":"a/b"}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Run(ctx, NewStdioTransport(strings.NewReader(in), &out, 5*time.Second)); err != nil {
		t.Fatalf("Run: %v", err)
	}
	type reply struct {
		ID     any `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	byID := map[string]reply{}
	var errs []int
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		if r.ID == nil {
			errs = append(errs, r.Error.Code)
			continue
		}
		byID[strings.Trim(string(mustJSON(r.ID)), `"`)] = r
	}
	if len(errs) != 3 || errs[0] != -32700 || errs[1] != -32600 || errs[2] != -32600 {
		t.Fatalf("errors for the bad lines: %v\n%s", errs, out.String())
	}
	if r := byID["two"]; r.Result.IsError || len(r.Result.Content) != 1 || r.Result.Content[0].Text != "[offline] reply #1 to: hi" {
		t.Fatalf("chat: %+v\n%s", r, out.String())
	}
	if r := byID["3"]; !r.Result.IsError || !strings.Contains(r.Result.Content[0].Text, `"nope"`) {
		t.Fatalf("load of a missing session: %+v", r)
	}
	if r := byID["4"]; r.Error == nil || r.Error.Code != -32601 {
		t.Fatalf("unknown method: %+v", r)
	}
	if r := byID["5"]; !r.Result.IsError || !strings.Contains(r.Result.Content[0].Text, "a/b") {
		t.Fatalf("chat on an invalid name: %+v", r)
	}
	if len(byID) != 5 {
		t.Fatalf("answered %d of 5 requests:\n%s", len(byID), out.String())
	}
	if got := f.users(mirror1); got != "hi" {
		t.Fatalf("mirror: %q", got)
	}
}

func TestOverlongLineIsRejectedAndSkipped(t *testing.T) {
	var out bytes.Buffer
	next := `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	in := strings.Repeat("x", MaxLineBytes+10) + "\n" + next
	tr := NewStdioTransport(strings.NewReader(in), &out, time.Second).(*mcp.IOTransport)
	got, err := io.ReadAll(tr.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != next || !strings.Contains(out.String(), "-32600") || !strings.Contains(out.String(), "over the limit") {
		t.Fatalf("passed %q, answered %q", got, out.String())
	}
}

func mustJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}
