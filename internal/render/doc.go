// Package render is the interactive surface's terminal output: replies'
// Markdown rendered block by block as they stream (markdown.go, stream.go:
// goldmark for the parsing, chroma for code), the spinner shown while
// chatcli waits (spinner.go) and the colours of the prompt, notices,
// warnings and errors (style.go). Untrusted text (a model's reply, a
// title, a message, a tool's output, a search snippet) has its control
// characters made visible by Visible (visible.go) before it is styled or
// printed: every plain-text printer of chatcli uses it, and --json output
// never does.
//
// Nothing here decides whether output is a terminal: the caller passes
// that in (ioStreams in cmd/chatcli), and on anything else the surfaces
// never create a Spinner and use a Palette with colour off, so pipes and
// files get plain text.
package render
