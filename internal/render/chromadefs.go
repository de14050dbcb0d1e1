package render

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"path"
	"time"
)

// chromaGz holds the lexer definitions of the languages most often pasted
// into a chat, and the monokai style, in chroma's XML form, gzipped: each
// chroma/NAME.xml.gz is chroma/NAME.xml, the file kept beside it for
// reading and review (chromadefs_test.go checks they agree, and with
// -update writes the .gz files from the .xml ones). Gzipped, they take a
// fifth of the room in the binary.
//
//go:embed chroma/*.xml.gz
var chromaGz embed.FS

// chromaDefs serves chroma/NAME.xml, read from chromaGz.
var chromaDefs fs.FS = gunzipFS{chromaGz}

// gunzipFS is a file system whose file NAME is the gunzipped content of
// file NAME.gz of gz.
type gunzipFS struct{ gz fs.FS }

// Open returns file name, gunzipped whole into memory.
func (g gunzipFS) Open(name string) (fs.File, error) {
	data, err := fs.ReadFile(g.gz, name+".gz")
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	return &gunzipFile{Reader: bytes.NewReader(plain), name: path.Base(name)}, nil
}

// gunzipFile is an open file of a gunzipFS, and its own fs.FileInfo.
type gunzipFile struct {
	*bytes.Reader
	name string
}

// Stat returns the file's information: its name and gunzipped size.
func (f *gunzipFile) Stat() (fs.FileInfo, error) { return f, nil }

// Close does nothing: the file is in memory.
func (f *gunzipFile) Close() error { return nil }

// Name returns the file's base name.
func (f *gunzipFile) Name() string { return f.name }

// Mode returns a regular file's read-only mode.
func (f *gunzipFile) Mode() fs.FileMode { return 0o444 }

// ModTime returns the zero time, as embed.FS does.
func (f *gunzipFile) ModTime() time.Time { return time.Time{} }

// IsDir returns false.
func (f *gunzipFile) IsDir() bool { return false }

// Sys returns nil.
func (f *gunzipFile) Sys() any { return nil }
