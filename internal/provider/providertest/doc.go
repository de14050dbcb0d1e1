// Package providertest runs strict fake LLM servers on 127.0.0.1 for tests:
// httptest servers speaking the OpenAI chat-completions and the Anthropic
// Messages wire formats, Gemini's OpenAI-compatible endpoint and Amazon
// Bedrock's InvokeModelWithResponseStream (SigV4 checked, replies in the AWS
// event stream), streaming included, that refuse what the real APIs
// document they refuse, with the real APIs' status codes and error bodies.
//
// Each rule a fake enforces cites its source next to the check: the API
// reference, or the error text the real service sends (quoted from its
// responses as reported publicly). A request a real server would refuse is
// answered 400 (413 for the Anthropic request-size limit) and recorded in
// Server.Refusals, so a test can tell "the client sent something invalid"
// from "the server failed".
//
// Replies are scripted: each accepted request takes the next Reply (the
// last one repeats). A Reply is text, tool calls, reasoning (OpenAI-style
// reasoning_content, an Anthropic thinking block with a signature the fake
// checks when it is sent back, or for Gemini a thought signature on the
// first tool call) or an error response.
package providertest
