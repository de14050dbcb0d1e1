package seal

import (
	"bytes"
	"crypto/rand"
	"testing"
)

// A 20 MB session file and a 1 KB journal record.
const (
	sessionSizeBytes = 20 << 20
	recordSizeBytes  = 1 << 10
)

func benchPlaintext(n int) []byte {
	// JSON-ish text; AES-GCM's speed does not depend on the content.
	return bytes.Repeat([]byte(`{"role":"user","content":"hello"},`), n/34+1)[:n]
}

func BenchmarkSeal20MB(b *testing.B) {
	k, pt := keyOf(b, 1), benchPlaintext(sessionSizeBytes)
	b.SetBytes(int64(len(pt)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Seal(k, "bench", pt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen20MB(b *testing.B) {
	k, pt := keyOf(b, 1), benchPlaintext(sessionSizeBytes)
	env := mustSeal(b, k, "bench", pt)
	b.SetBytes(int64(len(pt)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(k, "bench", env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopy20MB is the floor: allocating and copying 20 MB, what a
// plaintext load does at the least.
func BenchmarkCopy20MB(b *testing.B) {
	pt := benchPlaintext(sessionSizeBytes)
	b.SetBytes(int64(len(pt)))
	b.ReportAllocs()
	for b.Loop() {
		_ = bytes.Clone(pt)
	}
}

func BenchmarkSealLine1KB(b *testing.B) {
	k, rec := keyOf(b, 1), benchPlaintext(recordSizeBytes)
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SealLine(k, "journal:bench", rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenLine1KB(b *testing.B) {
	k, rec := keyOf(b, 1), benchPlaintext(recordSizeBytes)
	line, err := SealLine(k, "journal:bench", rec)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := OpenLine(k, "journal:bench", line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeriveKey is the fixed cost per envelope: HKDF-SHA256 and the
// AES-GCM setup.
func BenchmarkDeriveKey(b *testing.B) {
	k, salt := keyOf(b, 1), make([]byte, saltSize)
	rand.Read(salt)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newAEAD(k, salt); err != nil {
			b.Fatal(err)
		}
	}
}
