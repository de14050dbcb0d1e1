package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestMembers(t *testing.T) {
	doc := []byte(` {"a":1, "b\"q":"x\\\\\"y\\\\" ,"c":{"d":[1,"]",{}]},"e":null,"f":-1.5e3,"g":true} `)
	ms, err := Members(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "1", `b"q`: `"x\\\\\"y\\\\"`, "c": `{"d":[1,"]",{}]}`, "e": "null", "f": "-1.5e3", "g": "true"}
	if len(ms) != len(want) {
		t.Fatalf("%d members", len(ms))
	}
	for _, m := range ms {
		if want[m.Key] != string(m.Value) {
			t.Errorf("%q = %s, want %s", m.Key, m.Value, want[m.Key])
		}
	}
}

func TestStructuralErrors(t *testing.T) {
	for _, bad := range []string{``, `[]`, `{`, `{"a"`, `{"a":`, `{"a":1`, `{"a":1,}`, `{"a" 1}`, `{"a":1}x`,
		`{"a":"unterminated}`, `{"a":[1,2}`, `{a:1}`, `{"a":1 "b":2}`, "\x00\x00\x00"} {
		if _, err := Members([]byte(bad)); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: want ErrSyntax, got %v", bad, err)
		}
	}
	if _, err := Elements([]byte(`[1,2`)); !errors.Is(err, ErrSyntax) {
		t.Error("cut array")
	}
}

// FuzzMembersAgreesWithEncodingJSON: on every object encoding/json accepts,
// Members finds the same keys and values.
func FuzzMembersAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"x":"\\\"","y":[{"z":"}"}]}`, `{}`, `{"a":"\u00e9"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want map[string]json.RawMessage
		if json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		got, err := Members(data)
		if err != nil {
			t.Fatalf("encoding/json accepts %q, Members: %v", data, err)
		}
		for _, m := range got {
			if !bytes.Equal(bytes.TrimSpace(want[m.Key]), m.Value) && len(got) == len(want) {
				t.Fatalf("%q: member %q = %q, want %q", data, m.Key, m.Value, want[m.Key])
			}
		}
	})
}
