package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readers returns the ways a test feeds data to a Stream: whole, one byte
// per Read (every byte at a buffer boundary), and through the smallest
// buffer in chunks of 7.
func readers(data []byte) map[string]func() (io.Reader, []byte) {
	return map[string]func() (io.Reader, []byte){
		"whole":      func() (io.Reader, []byte) { return bytes.NewReader(data), nil },
		"one-byte":   func() (io.Reader, []byte) { return iotest.OneByteReader(bytes.NewReader(data)), make([]byte, 64) },
		"small-buf":  func() (io.Reader, []byte) { return iotest.HalfReader(bytes.NewReader(data)), make([]byte, 64) },
		"data-error": func() (io.Reader, []byte) { return iotest.DataErrReader(bytes.NewReader(data)), make([]byte, 64) },
	}
}

func TestCount(t *testing.T) {
	long := strings.Repeat(`x\\\"`, 40) // escapes on both sides of every 64-byte boundary
	for doc, want := range map[string]int{
		`[]`:                                    0,
		" [ ] \n":                               0,
		`[1]`:                                   1,
		`[1,"a",true,false,null,{},[]]`:         7,
		`[-0,0.5,1e3,-1.25E-7,2e+2,10]`:         6,
		`["\"",  "\\", "\\\"", "]", "\\\\"]`:    5,
		`[{"a":[1,{"b":"]}"}],"c":{}}, [[[]]]]`: 2,
		`["` + long + `", "` + long + `\\"]`:    2,
		`[{"role":"user","content":"h\u00e9\n\"q\""}]`: 1,
	} {
		var ref []json.RawMessage
		if err := json.Unmarshal([]byte(doc), &ref); err != nil || len(ref) != want {
			t.Fatalf("%s: the table is wrong: %v %d", doc, err, len(ref))
		}
		for how, r := range readers([]byte(doc)) {
			rd, buf := r()
			if n, err := Count(rd, buf); err != nil || n != want {
				t.Errorf("%s (%s): %d %v, want %d", doc, how, n, err, want)
			}
		}
	}
}

func TestCountRefusesMalformedDocuments(t *testing.T) {
	for _, bad := range []string{``, ` `, `{}`, `"a"`, `1`, `[`, `[1`, `[1,`, `[1 2]`, `[1,]`, `[,1]`, `[01]`, `[-]`,
		`[1.]`, `[.5]`, `[1e]`, `[1e+]`, `[+1]`, `[tru]`, `[nul]`, `[truex]`, `[True]`, `[{"a"}]`, `[{"a":}]`,
		`[{"a":1,}]`, `[{1:2}]`, `[{"a" 1}]`, `[{"a":1 "b":2}]`, `[]x`, `[] []`, `["abc`, `["a\"]`, `["a\\\"]`,
		`[}`, `[{]}`, `[[]`, `[]]`, `[{"a":1}}`, "\x00[]", `[@]`} {
		for how, r := range readers([]byte(bad)) {
			rd, buf := r()
			if n, err := Count(rd, buf); !errors.Is(err, ErrSyntax) {
				t.Errorf("%q (%s): %d %v, want ErrSyntax", bad, how, n, err)
			}
		}
	}
}

// Every cut of a valid document is an error, at every byte.
func TestCountRefusesEveryCut(t *testing.T) {
	doc := `[{"role":"user","content":"a \"quoted\" \\ line\n","meta":{"is_summary":true,"n":-1.5e3}},null,[true,false]]`
	for cut := 0; cut < len(doc); cut++ {
		for how, r := range readers([]byte(doc[:cut])) {
			rd, buf := r()
			if n, err := Count(rd, buf); !errors.Is(err, ErrSyntax) {
				t.Fatalf("cut at %d (%s): %d %v", cut, how, n, err)
			}
		}
	}
}

func TestReadErrorsAreNotSyntaxErrors(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`[1,"abc`), iotest.ErrReader(boom))
	if _, err := Count(r, nil); !errors.Is(err, boom) || errors.Is(err, ErrSyntax) {
		t.Fatalf("got %v", err)
	}
}

// Key, Raw and Skip walk an object; Raw keeps at most the bytes asked for
// and says when it cut.
func TestStreamMembers(t *testing.T) {
	doc := ` {"a":1, "b\"q":"x\\\\\"y" ,"c":{"d":[1,"]",{}]},"` + strings.Repeat("k", 2000) + `":null,"e\u00e9":"` + strings.Repeat("z", 300) + `"} `
	for how, r := range readers([]byte(doc)) {
		rd, buf := r()
		s := NewStream(rd, buf)
		if c, err := s.Enter(); err != nil || c != '{' {
			t.Fatal(c, err)
		}
		var got []string
		for {
			more, err := s.More()
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			if !more {
				break
			}
			key, err := s.Key()
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			raw, cut, err := s.Raw(nil, 20)
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			got = append(got, key+"="+string(raw))
			if cut != (len(raw) == 20 && key == "eé") {
				t.Errorf("%s: %q cut %v", how, key, cut)
			}
		}
		if err := s.End(); err != nil {
			t.Fatal(err)
		}
		want := []string{`a=1`, `b"q="x\\\\\"y"`, `c={"d":[1,"]",{}]}`, `=null`, `eé="` + strings.Repeat("z", 19)}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s:\n got %q\nwant %q", how, got, want)
		}
	}
}

// FuzzCountAgreesWithEncodingJSON: on every array encoding/json accepts,
// Count finds as many elements, fed whole or one byte at a time, and every
// cut of it is an error; what Count accepts and encoding/json refuses is
// refused for the contents of a string (an escape or a control byte),
// which the scan does not check.
func FuzzCountAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range []string{`[]`, `[1,"a",{"b":[null]}]`, `["\\\"",{"x":"}"}]`, `[{"role":"user","content":"\u00e9"}]`,
		`[-1.5e+3, 0, true, false]`, `[[[[]]]]`, `["\\"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > 5000 {
			return // encoding/json refuses nesting past 10,000
		}
		var want []json.RawMessage
		jerr := json.Unmarshal(data, &want)
		n, err := Count(bytes.NewReader(data), nil)
		if jerr != nil || want == nil { // not an array (or null)
			if err == nil && !bytes.ContainsFunc(data, func(r rune) bool { return r == '\\' || r < 0x20 }) {
				t.Fatalf("encoding/json refuses %q (%v), Count gives %d", data, jerr, n)
			}
			return
		}
		if err != nil || n != len(want) {
			t.Fatalf("%q: Count %d %v, encoding/json %d", data, n, err, len(want))
		}
		if n1, err := Count(iotest.OneByteReader(bytes.NewReader(data)), make([]byte, 64)); err != nil || n1 != n {
			t.Fatalf("%q one byte at a time: %d %v, want %d", data, n1, err, n)
		}
		trimmed := bytes.TrimRight(data, " \t\r\n")
		for cut := 0; cut < len(trimmed); cut++ {
			if _, err := Count(bytes.NewReader(trimmed[:cut]), nil); !errors.Is(err, ErrSyntax) {
				t.Fatalf("%q cut at %d: %v, want ErrSyntax", data, cut, err)
			}
		}
	})
}
