package acpserver

import (
	"fmt"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// ChunkBytes bounds the text one session/update notification carries: a
// longer message is sent as several agent_message_chunk (or
// user_message_chunk) notifications, which ACP clients concatenate. Even
// with every byte escaped as \uXXXX in JSON, a notification stays far
// below the 10 MiB line Go ACP clients read.
const ChunkBytes = 256 << 10

// textChunks cuts s into pieces of at most ChunkBytes bytes, between
// characters; "" gives no piece.
func textChunks(s string) []string {
	var out []string
	for len(s) > ChunkBytes {
		cut := ChunkBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// shown is s for a field that cannot be split across notifications (a
// tool call's result or arguments): s itself when it fits in ChunkBytes,
// else its start, cut between whole characters (never inside an emoji
// sequence or a letter and its accents), and a note of its whole size.
func shown(s string) string {
	if len(s) <= ChunkBytes {
		return s
	}
	end, rest, state := 0, s, -1
	for rest != "" {
		var c string
		c, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if end+len(c) > ChunkBytes {
			break
		}
		end += len(c)
	}
	if end == 0 { // one character longer than ChunkBytes
		end = len(textChunks(s)[0])
	}
	return fmt.Sprintf("%s\n… (%d bytes in all; the session holds the whole text)", s[:end], len(s))
}
