package main

import (
	"io"
	"os"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"
)

// oneShotPrompt is the prompt of `chatcli -p`: "-" reads the whole prompt
// from standard input; otherwise input piped in (a pipe or a file, never a
// terminal or a device such as /dev/null) is appended to the prompt after
// a blank line, so `git diff | chatcli -p "review this"` sends both.
func oneShotPrompt(prompt string, s *ioStreams) (string, error) {
	if prompt != "-" && !piped(s) {
		return prompt, nil
	}
	data, err := io.ReadAll(s.In)
	if err != nil {
		return "", i18n.Errorf("read the prompt from standard input: %w", err)
	}
	in := string(data)
	switch {
	case prompt == "-" && strings.TrimSpace(in) == "":
		return "", i18n.Errorf("%w: -p - reads the prompt from standard input, and it was empty", errFlags)
	case prompt == "-":
		return in, nil
	case strings.TrimSpace(in) == "":
		return prompt, nil
	}
	return prompt + "\n\n" + in, nil
}

// piped reports whether standard input is something piped in: not a
// terminal, and when it is a file, a pipe or a regular file (not
// /dev/null or another device).
func piped(s *ioStreams) bool {
	if s.InTTY {
		return false
	}
	f, ok := s.In.(*os.File)
	if !ok {
		return s.In != nil // a reader a test gave
	}
	st, err := f.Stat()
	return err == nil && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular())
}
