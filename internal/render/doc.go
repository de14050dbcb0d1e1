// Package render is the interactive surface's terminal output: replies'
// Markdown rendered block by block as they stream (markdown.go, stream.go:
// goldmark for the parsing, chroma for code), the spinner shown while
// chatcli waits (spinner.go) and the colours of the prompt, notices,
// warnings and errors (style.go). Text from a model is sanitised before it
// reaches the terminal.
//
// Nothing here decides whether output is a terminal: the caller passes
// that in (ioStreams in cmd/chatcli), and on anything else the surfaces
// never create a Spinner and use a Palette with colour off, so pipes and
// files get plain text.
package render
