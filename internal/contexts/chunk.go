package contexts

import (
	"strings"

	"github.com/chatcli/chatcli/internal/bootstrap"
)

// ChunkBytes caps one chunk (4 KiB).
const ChunkBytes = 4 << 10

// chunk splits a file's text into chunks of at most ChunkBytes, cut after
// a newline where there is one, otherwise between characters.
func chunk(file, text string) []Chunk {
	var out []Chunk
	line := 1
	for text != "" {
		piece, _ := bootstrap.Cut(text, ChunkBytes)
		if len(piece) < len(text) {
			if i := strings.LastIndexByte(piece, '\n'); i >= 0 {
				piece = piece[:i+1]
			}
		}
		out = append(out, Chunk{File: file, Line: line, Text: piece})
		line += strings.Count(piece, "\n")
		text = text[len(piece):]
	}
	return out
}
