package mcpserver

import "bytes"

// sdkResponsePrefix starts every response the SDK writes: its jsonrpc2
// package encodes a message as one struct whose members are, in order,
// jsonrpc, id, method, params, result and error, the empty ones omitted,
// so a response is `{"jsonrpc":"2.0","id":<id>,"result":…}` or
// `…,"error":…}`, and a request it sends has "method" after the id.
var sdkResponsePrefix = []byte(`{"jsonrpc":"2.0","id":`)

// sdkResponseID reads the id of a response line p in the SDK's encoding
// without reading the rest of the line: the transport's own id (a positive
// decimal int64, lineWriter.admit), and the offset in p just after it. ok
// is false for any other line (a request or a notification, an id that is
// no such number, another encoding), which the caller then decodes whole.
// The id is the top-level member: nothing before it nests.
func sdkResponseID(p []byte) (n int64, end int, ok bool) {
	if !bytes.HasPrefix(p, sdkResponsePrefix) {
		return 0, 0, false
	}
	i := len(sdkResponsePrefix)
	for end = i; end < len(p) && p[end] >= '0' && p[end] <= '9'; end++ {
		if end-i == 18 {
			return 0, 0, false // past what an int64 surely holds
		}
		n = n*10 + int64(p[end]-'0')
	}
	if end == i || p[i] == '0' {
		return 0, 0, false
	}
	rest := p[end:]
	if !bytes.HasPrefix(rest, []byte(`,"result":`)) && !bytes.HasPrefix(rest, []byte(`,"error":`)) {
		return 0, 0, false
	}
	return n, end, true
}

// writeWithID writes the response line p to w.w with the id that ends at
// offset end (sdkResponseID) replaced by id: the line is not decoded nor
// copied, so a reply of many megabytes costs its one write. The caller
// holds w.mu, so the two writes make one whole line in the output.
func (w *lineWriter) writeWithID(p []byte, end int, id []byte) error {
	head := make([]byte, 0, len(sdkResponsePrefix)+len(id))
	head = append(append(head, sdkResponsePrefix...), id...)
	if _, err := w.w.Write(head); err != nil {
		return err
	}
	_, err := w.w.Write(p[end:])
	return err
}
