package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"image/png"
	"maps"
	"slices"

	"github.com/openai/openai-go/v3"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// extraContentField is the member of a tool call in which Gemini's
// endpoint sends, and wants back, the call's thought signature:
// "extra_content": {"google": {"thought_signature": …}}. The rules for
// Gemini are in the package doc.
const extraContentField = "extra_content"

// geminiImage returns im as Gemini takes it: a GIF becomes its first frame
// in PNG, other images and URLs are unchanged.
func geminiImage(im provider.Image) (provider.Image, error) {
	if im.MediaType != "image/gif" {
		return im, nil
	}
	frame, err := gif.Decode(bytes.NewReader(im.Data))
	if err != nil {
		return im, fmt.Errorf("%w: GIF: %v", provider.ErrImage, err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, frame); err != nil {
		return im, fmt.Errorf("%w: GIF to PNG: %v", provider.ErrImage, err)
	}
	return provider.Image{MediaType: "image/png", Data: b.Bytes()}, nil
}

// callSignature is the thought signature of tool call Index of a reply, as
// stored in message.Reasoning.Blocks.
type callSignature struct {
	Index     int    `json:"call"`
	Signature string `json:"thought_signature"`
}

// deltaSignatures adds the thought signatures a streamed delta's tool-call
// fragments carry to sigs, by call index.
func deltaSignatures(sigs map[int]string, d openai.ChatCompletionChunkChoiceDelta) {
	for _, tc := range d.ToolCalls {
		f, ok := tc.JSON.ExtraFields[extraContentField]
		if !ok {
			continue
		}
		var extra struct {
			Google struct {
				ThoughtSignature string `json:"thought_signature"`
			} `json:"google"`
		}
		if json.Unmarshal([]byte(f.Raw()), &extra) == nil && extra.Google.ThoughtSignature != "" {
			sigs[int(tc.Index)] = extra.Google.ThoughtSignature
		}
	}
}

// storedSignatures returns sigs as Reasoning.Blocks, nil when there are
// none.
func storedSignatures(sigs map[int]string) json.RawMessage {
	if len(sigs) == 0 {
		return nil
	}
	list := make([]callSignature, 0, len(sigs))
	for _, i := range slices.Sorted(maps.Keys(sigs)) {
		list = append(list, callSignature{Index: i, Signature: sigs[i]})
	}
	raw, _ := json.Marshal(list)
	return raw
}

// signaturesOf returns the stored thought signature of each tool call of
// m, by index. normalize has already dropped reasoning another provider or
// model wrote.
func signaturesOf(m message.Message) map[int]string {
	if m.Meta == nil || m.Meta.Reasoning == nil || len(m.Meta.Reasoning.Blocks) == 0 {
		return nil
	}
	var sigs []callSignature
	if json.Unmarshal(m.Meta.Reasoning.Blocks, &sigs) != nil {
		return nil
	}
	out := make(map[int]string, len(sigs))
	for _, s := range sigs {
		out[s.Index] = s.Signature
	}
	return out
}
