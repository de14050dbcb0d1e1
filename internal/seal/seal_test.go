package seal

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestRoundTrip(t *testing.T) {
	k := keyOf(t, 1)
	big := make([]byte, 20<<20)
	rand.Read(big)
	for name, pt := range map[string][]byte{
		"empty":  {},
		"nil":    nil,
		"1 byte": {'x'},
		"json":   []byte(`{"version":2,"title":"t","chat_history":[]}`),
		"20 MB":  big,
	} {
		t.Run(name, func(t *testing.T) {
			env := mustSeal(t, k, "documentação-site", pt)
			if len(env) != len(pt)+Overhead {
				t.Fatalf("envelope is %d bytes, want %d", len(env), len(pt)+Overhead)
			}
			if !IsSealed(env) {
				t.Fatal("IsSealed(envelope) = false")
			}
			if len(pt) >= 8 && bytes.Contains(env, pt[:8]) {
				t.Fatal("envelope contains the plaintext")
			}
			got, err := Open(k, "documentação-site", env)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, pt) {
				t.Fatal("round trip changed the plaintext")
			}
		})
	}
}

func TestIsSealed(t *testing.T) {
	for _, plain := range []string{"", "{", `{"version":2}`, "[]", "\x89CHS", "CHATSEAL", "\x89PNG\r\n\x1a\n"} {
		if IsSealed([]byte(plain)) {
			t.Errorf("IsSealed(%q) = true", plain)
		}
	}
	if !IsSealed([]byte(magic)) {
		t.Error("IsSealed(magic) = false")
	}
}

func TestSealDiffersEachCall(t *testing.T) {
	k := keyOf(t, 1)
	pt := []byte("same plaintext, same name")
	a, b := mustSeal(t, k, "s", pt), mustSeal(t, k, "s", pt)
	if bytes.Equal(a[saltOff:nonceOff], b[saltOff:nonceOff]) {
		t.Error("two envelopes share a salt")
	}
	if bytes.Equal(a[nonceOff:headerSize], b[nonceOff:headerSize]) {
		t.Error("two envelopes share a nonce")
	}
	if bytes.Equal(a[headerSize:], b[headerSize:]) {
		t.Error("two envelopes share a ciphertext")
	}
}

// Every single flipped bit fails: in the magic the data is no longer an
// envelope, in the version byte it is a version this build does not read,
// anywhere else authentication fails.
func TestEveryBitFlipFails(t *testing.T) {
	k := keyOf(t, 1)
	env := mustSeal(t, k, "s", []byte("hello, world"))
	orig := bytes.Clone(env)
	for bit := range len(env) * 8 {
		bad := flipBit(env, bit)
		got, err := Open(k, "s", bad)
		if err == nil {
			t.Fatalf("bit %d flipped: opened to %q", bit, got)
		}
		var ok bool
		switch i := bit / 8; {
		case i < versionOff:
			ok = errors.Is(err, ErrNotSealed)
		case i == versionOff:
			ok = errors.Is(err, ErrTooNew) || errors.Is(err, ErrCorrupt)
		default:
			ok = errors.Is(err, ErrWrongKey)
		}
		if !ok {
			t.Fatalf("bit %d (byte %d) flipped: %v", bit, bit/8, err)
		}
	}
	if !bytes.Equal(env, orig) {
		t.Fatal("Open modified the envelope")
	}
}

func TestTruncatedAtEveryLength(t *testing.T) {
	k := keyOf(t, 1)
	env := mustSeal(t, k, "s", []byte("twenty bytes of text"))
	for n := range len(env) {
		_, err := Open(k, "s", env[:n])
		var want error
		switch {
		case n == 0:
			want = ErrNotSealed
		case n < Overhead:
			want = ErrCorrupt
		default: // the tag no longer matches: indistinguishable from tampering
			want = ErrWrongKey
		}
		if !errors.Is(err, want) {
			t.Fatalf("cut to %d of %d bytes: %v, want %v", n, len(env), err, want)
		}
	}
	if _, err := Open(k, "s", append(bytes.Clone(env), 0)); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("one byte appended: %v", err)
	}
}

func TestSwappedBetweenNames(t *testing.T) {
	k := keyOf(t, 1)
	pt := []byte(`{"version":2}`)
	names := []string{"alpha", "beta", "alph", "alpha\x00", "journal:alpha", "refatoração-legado", "refatorac\u0327a\u0303o-legado", ""}
	envs := make([][]byte, len(names))
	for i, n := range names {
		envs[i] = mustSeal(t, k, n, pt)
	}
	for i, sealedFor := range names {
		for j, openedAs := range names {
			_, err := Open(k, openedAs, envs[i])
			if i == j && err != nil {
				t.Errorf("sealed for %q, opened as itself: %v", sealedFor, err)
			}
			if i != j && !errors.Is(err, ErrWrongKey) {
				t.Errorf("sealed for %q, opened as %q: %v, want ErrWrongKey", sealedFor, openedAs, err)
			}
		}
	}
}

// key-1: the wrong key fails and leaves the envelope as it was; the right
// key then opens it.
func TestWrongKeyThenRightKey(t *testing.T) {
	right, wrong := keyOf(t, 1), keyOf(t, 2)
	env := mustSeal(t, right, "s", []byte("secret"))
	orig := bytes.Clone(env)
	if _, err := Open(wrong, "s", env); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("wrong key: %v", err)
	}
	if !bytes.Equal(env, orig) {
		t.Fatal("Open with the wrong key modified the envelope")
	}
	got, err := Open(right, "s", env)
	if err != nil || string(got) != "secret" {
		t.Fatalf("right key after wrong key: %q, %v", got, err)
	}
}

func TestOpenHeaderErrors(t *testing.T) {
	k := keyOf(t, 1)
	env := mustSeal(t, k, "s", []byte("x"))
	withVersion := func(v byte) []byte { e := bytes.Clone(env); e[versionOff] = v; return e }
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"plaintext json", []byte(`{"version":2}`), ErrNotSealed},
		{"empty", nil, ErrNotSealed},
		{"magic only", []byte(magic), ErrCorrupt},
		{"half the magic", []byte(magic[:4]), ErrCorrupt},
		{"version 0", withVersion(0), ErrCorrupt},
		{"version 2: a stream", withVersion(2), ErrCorrupt},
		{"version 3", withVersion(3), ErrTooNew},
		{"version 255", withVersion(255), ErrTooNew},
		{"version 3, short", []byte(magic + "\x03"), ErrTooNew},
		{"header only", env[:headerSize], ErrCorrupt},
	}
	for _, tt := range tests {
		if _, err := Open(k, "s", tt.in); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestRandomFailure(t *testing.T) {
	boom := errors.New("boom")
	withRandom(t, iotest.ErrReader(boom))
	if _, err := Seal(keyOf(t, 1), "s", []byte("x")); !errors.Is(err, boom) {
		t.Fatalf("Seal with a failing random source: %v", err)
	}
	withRandom(t, io.LimitReader(&countingReader{}, 20))
	if _, err := Seal(keyOf(t, 1), "s", []byte("x")); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Seal with a short random source: %v", err)
	}
}
