package providertest

import "net/http"

// sniffedAs reports whether data is an image whose bytes show mediaType,
// by the WHATWG sniffing net/http implements; only the four types the
// OpenAI and Anthropic APIs take pass.
func sniffedAs(data []byte, mediaType string) bool {
	switch mediaType {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
		return http.DetectContentType(data) == mediaType
	}
	return false
}
