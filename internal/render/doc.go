// Package render is the interactive surface's terminal output: the
// spinner shown while chatcli waits (spinner.go) and the colours of the
// prompt, notices, warnings and errors (style.go).
//
// Nothing here decides whether output is a terminal: the caller passes
// that in (ioStreams in cmd/chatcli), and on anything else the surfaces
// never create a Spinner and use a Palette with colour off, so pipes and
// files get plain text.
package render
