package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchDoc is an array of 20,000 indented messages (about 5 MB), laid out
// as json.MarshalIndent writes them.
func benchDoc(b *testing.B) []byte {
	type msg struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	msgs := make([]msg, 20000)
	for i := range msgs {
		msgs[i] = msg{"user", fmt.Sprintf("message %d: %s", i, strings.Repeat("lorem \"ipsum\" <dolor>\n", 8))}
	}
	data, err := json.MarshalIndent(msgs, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkCount counts the messages of benchDoc through a 256 KiB buffer.
func BenchmarkCount(b *testing.B) {
	data := benchDoc(b)
	buf := make([]byte, 256<<10)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if n, err := Count(bytes.NewReader(data), buf); err != nil || n != 20000 {
			b.Fatal(n, err)
		}
	}
}

// BenchmarkCountEncodingJSON is the reference: json.Decoder decoding each
// message of the same document to count them.
func BenchmarkCountEncodingJSON(b *testing.B) {
	data := benchDoc(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.Token()
		n := 0
		for dec.More() {
			var m struct{ Role, Content string }
			if err := dec.Decode(&m); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 20000 {
			b.Fatal(n)
		}
	}
}
