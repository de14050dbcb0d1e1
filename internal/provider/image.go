package provider

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/chatcli/chatcli/internal/message"
)

// MaxImageBytes caps an image sent inline, in bytes: 5 MiB, the per-image
// limit of Anthropic's Messages API (docs.anthropic.com, Vision: "images
// larger than 5MB are rejected"); OpenAI's 20 MB is larger, so one cap
// serves both.
const MaxImageBytes = 5 << 20

// ErrImage is wrapped by every error LoadImage returns.
var ErrImage = errors.New("image cannot be sent")

// ImageMediaTypes are the media types both the OpenAI and the Anthropic APIs
// accept for an inline image (Anthropic's media_type enum; OpenAI's vision
// guide lists the same four).
var ImageMediaTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// Image is a stored image reference resolved for a request: inline bytes
// with their media type, or an http(s) URL the provider fetches itself.
type Image struct {
	// MediaType is one of ImageMediaTypes; "" for a URL.
	MediaType string
	// Data is the image's bytes; nil for a URL.
	Data []byte
	// URL is the http(s) URL of a remote image; "" for inline bytes.
	URL string
}

// Base64 is Data in standard base64 with padding.
func (im Image) Base64() string { return base64.StdEncoding.EncodeToString(im.Data) }

// DataURL is the image as a data URL ("data:image/png;base64,…"), or its
// URL for a remote one.
func (im Image) DataURL() string {
	if im.URL != "" {
		return im.URL
	}
	return "data:" + im.MediaType + ";base64," + im.Base64()
}

// LoadImage resolves ref, one of the forms a stored message's images take:
//
//   - a data URL ("data:image/png;base64,…"): decoded; its media type is
//     the one its bytes show (net/http's sniffing algorithm, WHATWG MIME
//     Sniffing), whatever the URL declares: Anthropic refuses an image
//     whose declared type does not match its bytes, and "image/jpg" (not a
//     registered type, which ChatCLI and other tools write) outright;
//   - an http(s) URL: passed on as it is;
//   - a file:// URL or a file path: read (at most MaxImageBytes) and
//     inlined with the sniffed media type.
//
// An image whose media type is not one of ImageMediaTypes, a missing or
// unreadable file, one over MaxImageBytes and a data URL that is not
// base64 are errors wrapping ErrImage that name the reference (clipped).
func LoadImage(ref string) (Image, error) {
	fail := func(format string, a ...any) (Image, error) {
		return Image{}, fmt.Errorf("%w: %s: %s", ErrImage, message.Clip(ref, 60), fmt.Sprintf(format, a...))
	}
	switch {
	case strings.HasPrefix(ref, "http://"), strings.HasPrefix(ref, "https://"):
		return Image{URL: ref}, nil
	case strings.HasPrefix(ref, "data:"):
		meta, payload, ok := strings.Cut(strings.TrimPrefix(ref, "data:"), ",")
		_, isBase64 := strings.CutSuffix(meta, ";base64")
		if !ok || !isBase64 {
			return fail("not a base64 data URL")
		}
		data, err := decodeBase64(payload)
		if err != nil {
			return fail("its data is not base64: %v", err)
		}
		return typed(data, fail)
	}
	path := ref
	if strings.HasPrefix(ref, "file://") {
		u, err := url.Parse(ref)
		if err != nil {
			return fail("not a file URL: %v", err)
		}
		path = u.Path
	}
	f, err := os.Open(path)
	if err != nil {
		return fail("%v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxImageBytes+1))
	if err != nil {
		return fail("%v", err)
	}
	if len(data) > MaxImageBytes {
		return fail("larger than the %d MiB an image may have", MaxImageBytes>>20)
	}
	return typed(data, fail)
}

// typed returns data as an Image of the media type its bytes show.
func typed(data []byte, fail func(string, ...any) (Image, error)) (Image, error) {
	if len(data) > MaxImageBytes {
		return fail("larger than the %d MiB an image may have", MaxImageBytes>>20)
	}
	mt := http.DetectContentType(data)
	if !isImageType(mt) {
		return fail("not a JPEG, PNG, GIF or WebP image (its bytes look like %s)", mt)
	}
	return Image{MediaType: mt, Data: data}, nil
}

func isImageType(mt string) bool {
	for _, t := range ImageMediaTypes {
		if mt == t {
			return true
		}
	}
	return false
}

// decodeBase64 decodes standard or URL-safe base64, padded or not, with any
// line breaks or spaces in it.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}
