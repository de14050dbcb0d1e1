package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-v*")

const (
	goldenName      = "refatoração-legado"
	goldenPlaintext = `{"version":2,"title":"golden","chat_history":[{"role":"user","content":"hi"}]}`
)

// TestGolden pins the version-1 and version-2 formats: with a fixed salt and nonce source,
// Seal and SealLine produce exactly the bytes in testdata, and those bytes
// open with the current code. Refresh with go test -run Golden -update, and
// only together with a new version number.
func TestGolden(t *testing.T) {
	k := keyOf(t, 0x80)
	for _, g := range []struct {
		file string
		seal func() ([]byte, error)
		open func([]byte) ([]byte, error)
	}{
		{"golden-v1.bin",
			func() ([]byte, error) { return Seal(k, goldenName, []byte(goldenPlaintext)) },
			func(b []byte) ([]byte, error) { return Open(k, goldenName, b) }},
		{"golden-v1.line",
			func() ([]byte, error) { return SealLine(k, goldenName, []byte(goldenPlaintext)) },
			func(b []byte) ([]byte, error) { return OpenLine(k, goldenName, b) }},
		{"golden-v2.bin",
			func() ([]byte, error) { return sealStream(t, k, goldenName, []byte(goldenPlaintext), 10), nil },
			func(b []byte) ([]byte, error) { return openStream(k, goldenName, b) }},
	} {
		t.Run(g.file, func(t *testing.T) {
			withRandom(t, &countingReader{})
			got, err := g.seal()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", g.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the sealed format changed: %s differs from what Seal makes now; bump the version instead", path)
			}
			pt, err := g.open(want)
			if err != nil || string(pt) != goldenPlaintext {
				t.Errorf("%s no longer opens: %q, %v", path, pt, err)
			}
		})
	}
}

// TestLayoutMatchesDoc builds an envelope by hand from the byte layout in
// doc.go, with the primitives directly, and compares it with Seal's.
func TestLayoutMatchesDoc(t *testing.T) {
	k := keyOf(t, 0x80)
	withRandom(t, &countingReader{})
	got := mustSeal(t, k, goldenName, []byte(goldenPlaintext))

	random := counting(0, 44)
	salt, nonce := random[:32], random[32:]
	header := append([]byte("\x89CHS\r\n\x1a\n\x01"), random...)
	fileKey, err := hkdf.Key(sha256.New, counting(0x80, 32), salt, "chatcli seal v1", 32)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := aes.NewCipher(fileKey)
	gcm, _ := cipher.NewGCM(block)
	ad := binary.BigEndian.AppendUint64(bytes.Clone(header), uint64(len(goldenName)))
	ad = append(ad, goldenName...)
	want := gcm.Seal(bytes.Clone(header), nonce, []byte(goldenPlaintext), ad)

	if len(header) != 53 || Overhead != 69 || len(want) != len(goldenPlaintext)+69 {
		t.Fatalf("sizes: header %d, overhead %d", len(header), Overhead)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Seal does not follow the documented layout:\n got %x\nwant %x", got, want)
	}
}

// TestStreamLayoutMatchesDoc builds a three-segment stream by hand from the
// byte layout in doc.go (version 2) and compares it with Writer's.
func TestStreamLayoutMatchesDoc(t *testing.T) {
	k := keyOf(t, 0x80)
	pt := plain(2*65536 + 300)
	withRandom(t, &countingReader{})
	got := sealStream(t, k, goldenName, pt, 4096)

	random := counting(0, 39)
	salt, prefix := random[:32], random[32:]
	header := append([]byte("\x89CHS\r\n\x1a\n\x02"), random...)
	fileKey, err := hkdf.Key(sha256.New, counting(0x80, 32), salt, "chatcli seal v2", 32)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := aes.NewCipher(fileKey)
	gcm, _ := cipher.NewGCM(block)
	ad := binary.BigEndian.AppendUint64(bytes.Clone(header), uint64(len(goldenName)))
	ad = append(ad, goldenName...)
	want := bytes.Clone(header)
	for i, seg := range [][]byte{pt[:65536], pt[65536:131072], pt[131072:]} {
		nonce := binary.BigEndian.AppendUint32(bytes.Clone(prefix), uint32(i))
		nonce = append(nonce, map[bool]byte{false: 0, true: 1}[i == 2])
		want = gcm.Seal(want, nonce, seg, ad)
	}
	if len(header) != 48 || len(want) != len(pt)+48+3*16 {
		t.Fatalf("sizes: header %d, stream %d", len(header), len(want))
	}
	if !bytes.Equal(got, want) {
		t.Fatal("Writer does not follow the documented version-2 layout")
	}
}
