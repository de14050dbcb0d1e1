// Package jsonrpcline checks the lines of newline-delimited JSON-RPC 2.0,
// the framing of MCP's stdio transport and of ACP, before a protocol SDK
// reads them, so that a malformed line is answered and skipped instead of
// ending the connection or vanishing.
//
// The rules enforced are JSON-RPC 2.0's (https://www.jsonrpc.org/specification):
//
//   - A line that is not JSON is answered with -32700 Parse error, id null
//     (§5.1).
//   - A line that is JSON but not a Request or Response object is
//     answered with -32600 Invalid Request under its id when that id is
//     valid, else under id null (§5: "If there was an error in detecting
//     the id in the Request object, it MUST be Null"): "jsonrpc" must be
//     exactly "2.0"; "method" a non-empty string; "params", when present,
//     an object or an array (§4.2); "id", when present, a string or a
//     number (§4; null is refused, as MCP requires and JSON-RPC
//     discourages); a Response has "result" or "error", not both (§5).
//   - A batch (an array, §6) is answered, not served: both protocols have
//     none (MCP 2025-06-18 removed JSON-RPC batching; ACP never had it).
//     The reply is an array holding one -32600 error per call of the batch,
//     under the call's id (id null for an element that is no valid
//     message), or one error with id null when the batch holds no call.
//   - A line longer than the reader's limit is read to its end without
//     being kept and answered with -32600 under the id found in its first
//     64 KiB (id null when there is none there).
//
// Logs of a refused line carry Excerpt, a bounded, quoted prefix, never
// the whole line.
//
// Filter is the io.Reader a server hands its SDK instead of stdin: it
// applies these rules line by line (Reader bounds each line) and lets the
// server rewrite or hold back what passes; Pending counts the calls read
// and not yet answered, so that the end of stdin can wait for their
// answers (the servers' drain). Package linetest drives a server over
// these rules with a table of malformed lines.
package jsonrpcline
