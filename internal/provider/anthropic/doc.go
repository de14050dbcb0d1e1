// Package anthropic is the provider for Anthropic's Messages API, through
// the official SDK github.com/anthropics/anthropic-sdk-go/v2.
//
// Chat posts to <BaseURL>/v1/messages with "stream": true and reads the
// server-sent events in the order the protocol defines: message_start
// (model, input usage), then for each content block content_block_start,
// any number of content_block_delta (text_delta for text, input_json_delta
// carrying a fragment of a tool_use block's input JSON) and
// content_block_stop, then message_delta (stop_reason, output usage) and
// message_stop; ping events may come at any time. Each text_delta is passed
// to onDelta as it arrives; the SDK's Message.Accumulate joins text and
// input fragments. An "event: error" in the stream, or a stream that ends
// before message_stop, fails the call: nothing partial is ever returned as a
// reply.
//
// format.go documents how a message.Message history becomes the request's
// "system" and "messages", and how the offered provider.Tool values (and
// tools the history names) become "tools" and "tool_choice"; a failed tool
// result (meta.tool_error) is sent with "is_error": true.
//
// NewBedrock (bedrock.go) makes the same client for Claude on Amazon
// Bedrock: the SDK's bedrock package carries the Messages request to
// InvokeModelWithResponseStream and brings the AWS event stream back as
// these events, so everything above applies to it unchanged.
package anthropic
