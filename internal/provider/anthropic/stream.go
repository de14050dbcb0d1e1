package anthropic

import (
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// readStream consumes a Messages stream: each text_delta goes to onDelta,
// every event to Message.Accumulate. The stream must reach message_stop;
// otherwise the error wraps provider.ErrIncomplete (as does a transport
// error after the first event). Thinking blocks are kept in the reply's
// meta; other blocks (server tools) are not part of the reply.
func readStream(stream *ssestream.Stream[anthropic.MessageStreamEventUnion], source string, onDelta func(string)) (provider.Response, error) {
	var msg anthropic.Message
	stopped, received := false, 0
	for stream.Next() {
		received++
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return provider.Response{}, fmt.Errorf("%w: %w", provider.ErrMalformed, err)
		}
		switch ev.Type {
		case "content_block_delta":
			if onDelta != nil && ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
				onDelta(ev.Delta.Text)
			}
		case "message_stop":
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		var aerr *anthropic.Error
		if received > 0 && !errors.As(err, &aerr) {
			err = fmt.Errorf("%w: %w", provider.ErrIncomplete, err)
		}
		return provider.Response{}, err
	}
	if !stopped {
		return provider.Response{}, provider.ErrIncomplete
	}
	return toResponse(msg, source), nil
}

// toResponse converts the accumulated message; its thinking blocks, with
// their signatures, go to the message's meta (Reasoning from source). Input usage counts cached
// input too (input_tokens + cache_creation_input_tokens +
// cache_read_input_tokens): it is what the prompt occupies in the context.
func toResponse(msg anthropic.Message, source string) provider.Response {
	out := message.Message{Role: message.RoleAssistant}
	if r := storedReasoning(msg, source); r != nil {
		out.Meta = &message.Meta{Reasoning: r}
	}
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			out.Content += b.Text
		case "tool_use":
			args := string(b.Input)
			if args == "" {
				args = "{}"
			}
			out.ToolCalls = append(out.ToolCalls, message.ToolCall{
				ID: b.ID, Type: "function", Name: b.Name, Arguments: message.ValidUTF8(args),
			})
		}
	}
	out.Content = message.ValidUTF8(out.Content)
	u := msg.Usage
	return provider.Response{
		Message: out,
		Usage: provider.Usage{
			InputTokens:  int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
			OutputTokens: int(u.OutputTokens),
		},
		StopReason: string(msg.StopReason),
	}
}
