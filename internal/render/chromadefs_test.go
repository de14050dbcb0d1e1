package render

import (
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

var update = flag.Bool("update", false, "rewrite chroma/*.xml.gz from chroma/*.xml")

// TestChromaDefsAreTheXMLFiles checks that every chroma/NAME.xml has its
// chroma/NAME.xml.gz, with the same bytes once gunzipped, and no .gz is
// left without its .xml. With -update it first writes the .gz files.
func TestChromaDefsAreTheXMLFiles(t *testing.T) {
	xmls, err := filepath.Glob("chroma/*.xml")
	if err != nil || len(xmls) == 0 {
		t.Fatalf("no chroma/*.xml: %v", err)
	}
	if *update {
		for _, name := range xmls {
			writeGzip(t, name)
		}
	}
	for _, name := range xmls {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadFile(chromaDefs, filepath.ToSlash(name))
		if err != nil {
			t.Errorf("%s: %v (run go test ./internal/render -run TestChromaDefsAreTheXMLFiles -update)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s.gz is not %s (run go test ./internal/render -run TestChromaDefsAreTheXMLFiles -update)", name, name)
		}
	}
	gzs, err := fs.Glob(chromaGz, "chroma/*.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range gzs {
		if !slices.Contains(xmls, filepath.FromSlash(name[:len(name)-len(".gz")])) {
			t.Errorf("%s has no .xml beside it", name)
		}
	}
}

// writeGzip writes name.gz, name compressed with no file name or time in
// its header, so that the same XML always makes the same bytes.
func writeGzip(t *testing.T, name string) {
	t.Helper()
	in, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(zw, bytes.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+".gz", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAGunzippedDefHasItsNameAndSize(t *testing.T) {
	f, err := chromaDefs.Open("chroma/monokai.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat("chroma/monokai.xml")
	if err != nil {
		t.Fatal(err)
	}
	if info.Name() != "monokai.xml" || info.Size() != want.Size() || info.IsDir() {
		t.Errorf("Stat = %s, %d bytes, dir %v; want monokai.xml, %d bytes", info.Name(), info.Size(), info.IsDir(), want.Size())
	}
	if _, err := chromaDefs.Open("chroma/no-such.xml"); err == nil {
		t.Error("a missing definition opened")
	}
}
