package message

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Image is one image attached to a message, in the shape of ChatCLI's
// models.ImageContent: {"media_type","data","url","file_name"}. Exactly one
// of Data and URL carries the image.
type Image struct {
	// MediaType is the MIME type (image/png, image/jpeg, image/gif,
	// image/webp).
	MediaType string
	// Data is the image's bytes in standard base64 (RFC 4648 §4), the text
	// ChatCLI's []byte field holds in JSON; kept as text, never decoded.
	Data string
	// URL is a remote image (or a data URL whose payload is not base64)
	// when Data is empty.
	URL string
	// FileName is the name of the file the image came from, for display.
	FileName string
	// Extra holds members this build does not know, kept verbatim.
	Extra map[string]json.RawMessage
}

// Ref is the image as one URL, the form providers take: a data URL
// ("data:<media_type>;base64,<data>") for inline bytes, else URL.
func (img Image) Ref() string {
	if img.Data == "" {
		return img.URL
	}
	return "data:" + img.MediaType + ";base64," + img.Data
}

// Size is len(img.Ref()) in bytes, computed without building it.
func (img Image) Size() int {
	if img.Data == "" {
		return len(img.URL)
	}
	return len("data:;base64,") + len(img.MediaType) + len(img.Data)
}

// ParseImageRef is the Image a reference stands for: a base64 data URL
// becomes MediaType and Data, anything else (an http(s) URL, another data
// URL, a file path) stays whole in URL. Older chatcli files stored images
// as such strings.
func ParseImageRef(ref string) Image {
	if rest, ok := strings.CutPrefix(ref, "data:"); ok {
		meta, data, ok := strings.Cut(rest, ",")
		if mt, isBase64 := strings.CutSuffix(meta, ";base64"); ok && isBase64 && !strings.Contains(mt, ";") && stdBase64(data) {
			return Image{MediaType: mt, Data: data}
		}
	}
	return Image{URL: ref}
}

// stdBase64 reports whether s is standard, padded base64 (the only form
// ChatCLI's decoder accepts in "data").
func stdBase64(s string) bool {
	if len(s)%4 != 0 {
		return false
	}
	body := strings.TrimRight(s, "=")
	if len(s)-len(body) > 2 {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return false
		}
	}
	return true
}

// imageWire is the JSON shape of an Image.
type imageWire struct {
	MediaType string `json:"media_type"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
	FileName  string `json:"file_name,omitempty"`
}

var knownImageKeys = map[string]bool{"media_type": true, "data": true, "url": true, "file_name": true}

// MarshalJSON writes ChatCLI's object form, Extra after the known members.
func (img Image) MarshalJSON() ([]byte, error) {
	b, err := marshal(imageWire{img.MediaType, img.Data, img.URL, img.FileName})
	if err != nil || len(img.Extra) == 0 {
		return b, err
	}
	return appendExtra(b[:len(b)-1], img.Extra), nil
}

// UnmarshalJSON reads ChatCLI's object form or the reference string older
// chatcli files hold (ParseImageRef).
func (img *Image) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var ref string
		if err := json.Unmarshal(data, &ref); err != nil {
			return err
		}
		*img = ParseImageRef(ref)
		return nil
	}
	var w imageWire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	extra, err := unknownKeys(data, knownImageKeys)
	*img = Image{MediaType: w.MediaType, Data: w.Data, URL: w.URL, FileName: w.FileName, Extra: extra}
	return err
}

// SameImages reports whether a and b hold the same images in the same
// order, members this build does not know aside.
func SameImages(a, b []Image) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.MediaType != y.MediaType || x.Data != y.Data || x.URL != y.URL || x.FileName != y.FileName {
			return false
		}
	}
	return true
}

// ImageRefs returns the images of refs, each as ParseImageRef reads it.
func ImageRefs(refs ...string) []Image {
	out := make([]Image, len(refs))
	for i, r := range refs {
		out[i] = ParseImageRef(r)
	}
	return out
}
