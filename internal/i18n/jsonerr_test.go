package i18n

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestJSONErrorsAreSaidByType: each kind of error of encoding/json is
// said in Portuguese from its type and fields, alone or inside a catalog
// error, and keeps its own text in English.
func TestJSONErrorsAreSaidByType(t *testing.T) {
	unmarshal := func(data string, v any) error { return json.Unmarshal([]byte(data), v) }
	var s string
	var n uint8
	var st struct {
		Title string `json:"title"`
	}
	for _, c := range []struct {
		err error
		pt  string
	}{
		{JSONError(unmarshal(`{"a":x}`, &s), []byte(`{"a":x}`)), "JSON inválido no byte 6: caractere inesperado 'x'"},
		{JSONError(unmarshal("\x00", &s), []byte("\x00")), `JSON inválido no byte 1: caractere inesperado '\x00'`},
		{JSONError(unmarshal(`'`, &s), []byte(`'`)), `JSON inválido no byte 1: caractere inesperado '\''`},
		{unmarshal(`{"a":x}`, &s), "JSON inválido no byte 6"},
		{JSONError(unmarshal(`{"a":`, &s), []byte(`{"a":`)), "o JSON termina antes da hora (byte 5)"},
		{unmarshal(`5`, &s), "json: não dá para ler um número num valor Go do tipo string"},
		{unmarshal(`300`, &n), "json: não dá para ler o número 300 num valor Go do tipo uint8"},
		{unmarshal(`{"title":true}`, &st), "json: não dá para ler um booleano no campo Go .title, do tipo string"},
		{unmarshal(`{"title":[]}`, &st), "json: não dá para ler um array no campo Go .title, do tipo string"},
		{unmarshal(`{"title":{}}`, &st), "json: não dá para ler um objeto no campo Go .title, do tipo string"},
		{unmarshal(`"x"`, &n), "json: não dá para ler uma string num valor Go do tipo uint8"},
		{json.NewDecoder(strings.NewReader(`{"a":`)).Decode(&st), "os dados terminam antes da hora"},
	} {
		if c.err == nil {
			t.Fatalf("%q: no error", c.pt)
		}
		pt := New(Portuguese).Plain()
		if got := pt.Error(c.err, nil); got != c.pt {
			t.Errorf("%v: %q, want %q", c.err, got, c.pt)
		}
		wrapped := Errorf("%w: field %q: %v", Errorf("not a session document"), "title", c.err)
		if got, want := pt.Error(wrapped, nil), "não é um documento de sessão: campo \"title\": "+c.pt; got != want {
			t.Errorf("%v: %q, want %q", wrapped, got, want)
		}
		if got, want := New(English).Error(wrapped, nil), fmt.Sprintf("not a session document: field %q: %v", "title", c.err); got != want || wrapped.Error() != want {
			t.Errorf("in English: %q, want %q", got, want)
		}
	}
	if err := unmarshal(`{"a":`, &s); JSONError(err, []byte(`{"a":`)) != err {
		t.Errorf("%v: JSONError wraps the end of the input", err)
	}
	syn := JSONError(unmarshal(`x`, &s), []byte(`x`))
	if se := (*json.SyntaxError)(nil); !errors.As(syn, &se) || syn.Error() != "invalid character 'x' looking for beginning of value" {
		t.Errorf("%v: not a *json.SyntaxError", syn)
	}
	if got := New(Portuguese).Error(io.EOF, nil); got != "EOF" {
		t.Errorf("io.EOF: %q", got)
	}
}
