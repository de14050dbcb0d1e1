package openai

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/provider"
)

// readStream consumes a chat-completions stream: each content (or refusal)
// delta of choice 0 goes to onDelta, every chunk to a
// ChatCompletionAccumulator that joins text and tool-call fragments. The
// stream must end cleanly after a finish_reason was seen; otherwise, and
// when the connection fails after the first chunk, the error wraps
// provider.ErrIncomplete. An {"error":…} event is returned as the SDK's
// *ssestream.StreamError. Usage is taken from the last chunk
// that carried one (servers send it once, after the finish_reason, when
// include_usage is set; some send a running total in every chunk). The
// reasoning_content deltas of choice 0 (DeepSeek, Kimi, vLLM) are joined
// into the reply's meta, Reasoning from source; they are not shown. With
// gemini, the tool calls' thought signatures are kept there too, as
// Reasoning.Blocks (package doc).
func readStream(stream *ssestream.Stream[openai.ChatCompletionChunk], source string, gemini bool, onDelta func(string)) (provider.Response, error) {
	var acc openai.ChatCompletionAccumulator
	var reasoning strings.Builder
	sigs := map[int]string{}
	var usage openai.CompletionUsage
	finish, received := "", 0
	for stream.Next() {
		received++
		chunk := stream.Current()
		// Servers differ on whether the chunk id stays the same across a
		// stream; it is one completion whatever they say.
		chunk.ID = ""
		if !acc.AddChunk(chunk) {
			return provider.Response{}, fmt.Errorf("%w: %s", provider.ErrMalformed, message.Clip(chunk.RawJSON(), 200))
		}
		if chunk.JSON.Usage.Valid() && chunk.Usage.PromptTokens+chunk.Usage.CompletionTokens > 0 {
			usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.Index != 0 {
				continue
			}
			reasoning.WriteString(deltaReasoning(ch.Delta))
			if gemini {
				deltaSignatures(sigs, ch.Delta)
			}
			if onDelta != nil && ch.Delta.Content != "" {
				onDelta(ch.Delta.Content)
			}
			if onDelta != nil && ch.Delta.Refusal != "" {
				onDelta(ch.Delta.Refusal)
			}
			if ch.FinishReason != "" {
				finish = ch.FinishReason
			}
		}
	}
	if err := stream.Err(); err != nil {
		var serr *ssestream.StreamError
		if received > 0 && !errors.As(err, &serr) {
			err = fmt.Errorf("%w: %w", provider.ErrIncomplete, err)
		}
		return provider.Response{}, err
	}
	if finish == "" || len(acc.Choices) == 0 {
		return provider.Response{}, provider.ErrIncomplete
	}
	msg := toNeutral(acc.Choices[0].Message)
	if blocks := storedSignatures(sigs); reasoning.Len() > 0 || blocks != nil {
		msg.Meta = &message.Meta{Reasoning: &message.Reasoning{Source: source, Text: message.ValidUTF8(reasoning.String()), Blocks: blocks}}
	}
	return provider.Response{
		Message:    msg,
		Usage:      provider.Usage{InputTokens: int(usage.PromptTokens), OutputTokens: int(usage.CompletionTokens)},
		StopReason: finish,
	}, nil
}

// toNeutral converts the accumulated assistant message. A refusal is kept
// as the content, after any text.
func toNeutral(m openai.ChatCompletionMessage) message.Message {
	out := message.Message{Role: message.RoleAssistant, Content: message.ValidUTF8(m.Content + m.Refusal)}
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, message.ToolCall{
			ID:        c.ID,
			Type:      "function",
			Name:      c.Function.Name,
			Arguments: message.ValidUTF8(c.Function.Arguments),
		})
	}
	return out
}
