package jsonscan

import (
	"encoding/json"
	"testing"
)

// FuzzUnquoteAgreesWithEncodingJSON: Unquote accepts the string literals
// encoding/json accepts, and decodes them to the same string.
func FuzzUnquoteAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`""`, `"plain"`, `"a\nb\t\"c\"\\"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`,
		`"\ud83d\u0041"`, "\"\xff\xfe\"", `"é ฐาน"`, `"\x"`, `"\u12"`, "\"a\x01\"", `"a"b"`, `"\/"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
			return // Unquote takes a literal without the spaces JSON allows around it
		}
		var want string
		werr := json.Unmarshal(lit, &want)
		got, err := Unquote(lit)
		if werr == nil && (err != nil || got != want) {
			t.Fatalf("Unquote(%q) = %q, %v; encoding/json %q", lit, got, err, want)
		}
		if werr != nil && err == nil {
			t.Fatalf("Unquote(%q) = %q; encoding/json refuses it: %v", lit, got, werr)
		}
	})
}
