package mcpserver

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/chatcli/chatcli/internal/jsonrpcline"
)

func newTestWriter(out *bytes.Buffer) *lineWriter {
	return &lineWriter{w: out, calls: map[int64]json.RawMessage{}, byKey: map[string][]int64{}, pending: jsonrpcline.NewPending()}
}

// A reply of many megabytes goes out under the client's id without being
// decoded or copied: what the writer allocates does not grow with it.
func TestLargeReplyIsNotDecodedToRewriteItsID(t *testing.T) {
	var out bytes.Buffer
	w := newTestWriter(&out)
	n := w.admit(json.RawMessage(`1.5`))
	big := strings.Repeat("x", 8<<20)
	line := []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(n, 10) + `,"result":{"content":[{"type":"text","text":"` + big + `"}]}}` + "\n")
	out.Grow(len(line) + 64)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := w.Write(line); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	want := `{"jsonrpc":"2.0","id":1.5,"result":{"content":[{"type":"text","text":"` + big + `"}]}}` + "\n"
	if out.String() != want {
		t.Fatalf("reply begins %.80q", out.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("writing an 8 MiB reply allocated %d bytes", alloc)
	}
	if len(w.calls) != 0 {
		t.Errorf("the call is still in flight: %v", w.calls)
	}
}

// Only a response in the SDK's encoding to a call in flight is rewritten
// in place; a request the server sends, a notification, an unknown id and
// other encodings go the decoding way, as before.
func TestResponseIDIsReadOnlyFromTheSDKsResponses(t *testing.T) {
	for _, tc := range []struct {
		line string
		n    int64
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{}}`, 7, true},
		{`{"jsonrpc":"2.0","id":12,"error":{"code":-32601,"message":"x"}}`, 12, true},
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}`, 0, false},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"id":7}}`, 0, false},
		{`{"jsonrpc":"2.0","id":"7","result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":07,"result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":7.5,"result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":1234567890123456789012,"result":{}}`, 0, false},
		{`{"id":7,"jsonrpc":"2.0","result":{}}`, 0, false},
		{`{"jsonrpc":"2.0","id":,"result":{}}`, 0, false},
	} {
		n, _, ok := sdkResponseID([]byte(tc.line))
		if n != tc.n && tc.ok || ok != tc.ok {
			t.Errorf("%s: %d %v, want %d %v", tc.line, n, ok, tc.n, tc.ok)
		}
	}
	var out bytes.Buffer
	w := newTestWriter(&out)
	n := w.admit(json.RawMessage(`"a"`))
	ping := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(n, 10) + `,"method":"ping"}` + "\n"
	w.Write([]byte(ping))
	w.Write([]byte(`{"result":{},"id":` + strconv.FormatInt(n, 10) + `,"jsonrpc":"2.0"}` + "\n"))
	if got := out.String(); got != ping+`{"id":"a","jsonrpc":"2.0","result":{}}`+"\n" {
		t.Errorf("out:\n%s", got)
	}
}
