package session

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chatcli/chatcli/internal/seal"
)

// BenchmarkSaveLoad20MB compares plaintext and sealed Save and Load of the
// 20 MB session (bigSession): the sealed figures should stay within 1.3x.
func BenchmarkSaveLoad20MB(b *testing.B) {
	for _, mode := range []string{"plain", "sealed"} {
		newBenchStore := func(b *testing.B) *Store {
			s, _ := Open(b.TempDir())
			if mode == "sealed" {
				s.SetKey(testKey(b, 7))
			}
			return s
		}
		b.Run("Save/"+mode, func(b *testing.B) {
			s, sess := newBenchStore(b), bigSession()
			data, _ := Encode(sess)
			b.SetBytes(int64(len(data)))
			if err := s.Save("big", sess); err != nil { // Save replaces an existing file
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := s.Save("big", sess); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Load/"+mode, func(b *testing.B) {
			s, sess := newBenchStore(b), bigSession()
			if err := s.Save("big", sess); err != nil {
				b.Fatal(err)
			}
			st, _ := os.Stat(filepath.Join(s.Dir(), "big.json"))
			b.SetBytes(st.Size())
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Load("big"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkListSealed2000x5MB lists 2,000 sealed sessions of 5 MB each.
// Each file holds a real header sealed for its own name; the body is a
// sparse hole of the right length (List never reads bodies, and an
// envelope opens only under its own name, so hard links cannot stand in).
func BenchmarkListSealed2000x5MB(b *testing.B) {
	s, _ := Open(b.TempDir())
	k := testKey(b, 7)
	s.SetKey(k)
	sess := bigSession()
	sess.History = sess.History[:2500]
	body, _ := Encode(sess)
	benv, err := seal.Seal(k, "s0000", body)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		name := fmt.Sprintf("s%04d", i)
		h := *headerOf(sess)
		h.BodySalt, h.BodyBytes = benv[saltOffset:saltOffset+saltBytes], int64(len(benv))
		hj, _ := json.Marshal(h)
		henv, err := seal.Seal(k, headerName(name), hj)
		if err != nil {
			b.Fatal(err)
		}
		out := append([]byte(containerMagic), containerV1)
		out = binary.BigEndian.AppendUint32(out, uint32(len(henv)))
		out = append(out, henv...)
		p := filepath.Join(s.Dir(), name+fileExt)
		if err := os.WriteFile(p, out, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.Truncate(p, int64(len(out)+len(benv))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		list, err := s.List()
		if err != nil || len(list) != 2000 || list[0].Messages != 2500 || list[0].Err != nil {
			b.Fatalf("list: %v %d %v", err, len(list), list[0].Err)
		}
	}
}
