package seal

import (
	"bytes"
	"testing"
)

const fuzzName = "fuzz-session"

// fuzzSeeds seals a few plaintexts under keyOf(1) and fuzzName, in both
// forms; these are the only inputs that may open. The salts and nonces are
// fixed so that every fuzz worker process makes the same seeds.
func fuzzSeeds(f *testing.F) (envs, lines, streams map[string]string) {
	k := keyOf(f, 1)
	old := random
	random = &countingReader{}
	defer func() { random = old }()
	envs, lines, streams = map[string]string{}, map[string]string{}, map[string]string{}
	for _, pt := range []string{"", "x", `{"version":2,"chat_history":[]}`, string(plain(SegmentSizeBytes + 3))} {
		streams[string(sealStream(f, k, fuzzName, []byte(pt), 1000))] = pt
		if len(pt) > 100 {
			continue
		}
		env := mustSeal(f, k, fuzzName, []byte(pt))
		line, err := SealLine(k, fuzzName, []byte(pt))
		if err != nil {
			f.Fatal(err)
		}
		envs[string(env)], lines[string(line)] = pt, pt
	}
	return envs, lines, streams
}

// FuzzOpen: arbitrary bytes never panic, always give a classified error,
// are never modified, and never open without the right key and name.
// Only the seed envelopes themselves may open, under keyOf(1) and fuzzName.
func FuzzOpen(f *testing.F) {
	envs, lines, streams := fuzzSeeds(f)
	for s := range envs {
		f.Add([]byte(s))
	}
	for s := range streams {
		f.Add([]byte(s))
	}
	for s := range lines {
		f.Add([]byte(s))
	}
	for _, s := range []string{"", "{}", magic, magic + "\x01", magic + "\x02", magic + "\x00",
		"chatcli-sealed:", "chatcli-sealed:v1:", "chatcli-sealed:v9:AAAA"} {
		f.Add([]byte(s))
	}
	right, other := keyOf(f, 1), keyOf(f, 2)
	f.Fuzz(func(t *testing.T, data []byte) {
		orig := bytes.Clone(data)
		check := func(what string, want map[string]string, canon []byte, open func(Key, string, []byte) ([]byte, error)) {
			pt, err := open(right, fuzzName, data)
			if err == nil {
				if wantPT, ok := want[string(canon)]; !ok || string(pt) != wantPT {
					t.Fatalf("%s: forged: %q opened to %q", what, data, pt)
				}
			} else if s := sentinel(err); s == nil || s == ErrBadKey {
				t.Fatalf("%s: unclassified error %v", what, err)
			}
			if _, err := open(other, fuzzName, data); err == nil {
				t.Fatalf("%s: opened under the wrong key", what)
			}
			if _, err := open(right, fuzzName+"2", data); err == nil {
				t.Fatalf("%s: opened under the wrong name", what)
			}
		}
		check("Open", envs, data, Open)
		check("NewReader", streams, data, openStream)
		canon := bytes.TrimSuffix(bytes.TrimSuffix(data, []byte("\n")), []byte("\r"))
		check("OpenLine", lines, canon, OpenLine)
		if !bytes.Equal(data, orig) {
			t.Fatal("input modified")
		}
	})
}

// FuzzRoundTrip: any plaintext under any name seals and opens back, in
// the three forms, and does not open under another name.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte(""), "")
	f.Add([]byte(`{"version":2}`), "documentação-site")
	f.Add([]byte("a\nb\r\n\x00\xff"), "journal:0123")
	k := keyOf(f, 1)
	f.Fuzz(func(t *testing.T, pt []byte, name string) {
		env, err := Seal(k, name, pt)
		if err != nil {
			t.Fatal(err)
		}
		if len(env) != len(pt)+Overhead || !IsSealed(env) {
			t.Fatalf("envelope of %d bytes for %d", len(env), len(pt))
		}
		if got, err := Open(k, name, env); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("Open: %q, %v", got, err)
		}
		if _, err := Open(k, name+"x", env); sentinel(err) != ErrWrongKey {
			t.Fatalf("Open under another name: %v", err)
		}
		s := sealStream(t, k, name, pt, 1+len(name))
		if got, err := openStream(k, name, s); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("stream: %q, %v", got, err)
		}
		if got, err := openStream(k, name+"x", s); sentinel(err) != ErrWrongKey || len(got) != 0 {
			t.Fatalf("stream under another name: %q, %v", got, err)
		}
		line, err := SealLine(k, name, pt)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsAny(line, "\r\n") || !IsSealedLine(line) {
			t.Fatalf("bad line %q", line)
		}
		if got, err := OpenLine(k, name, append(line, '\n')); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("OpenLine: %q, %v", got, err)
		}
		if _, err := OpenLine(k, "x"+name, line); sentinel(err) != ErrWrongKey {
			t.Fatalf("OpenLine under another name: %v", err)
		}
	})
}
