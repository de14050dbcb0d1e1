package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/message"
)

// ErrRefused is wrapped by the error of a reference the person did not
// allow (@command without a terminal and without auto-exec).
var ErrRefused = i18n.Errorf("reference: refused")

// Expander expands references for one working folder. Fields left nil
// turn their reference off (left as typed).
type Expander struct {
	// Dir is the working folder: relative @file paths and @command run
	// there.
	Dir string
	// Environ lists the environment for @env (os.Environ).
	Environ func() []string
	// Run runs a command line for @command after asking permission as
	// agent mode does; its error refuses the reference.
	Run func(ctx context.Context, cmdline string) (string, error)
	// Search returns the best cross-session hits for @session, each as
	// (source, snippet text).
	Search func(query string) ([][2]string, error)
	// Recall returns the turn a compaction's recall key names, as text,
	// for @recall.
	Recall func(key string) (string, error)
	// HistoryFile is the shell history read by @history ("" turns it off).
	HistoryFile string
	// Notify hears the one-line announcement of each expansion.
	Notify func(string)
}

// kinds maps a reference name to whether it takes the rest of the line
// (true), one word (false); argumentless ones are in noArg.
var restOfLine = map[string]bool{"command": true, "session": true}
var oneWord = map[string]bool{"file": true, "recall": true}
var noArg = map[string]bool{"git": true, "env": true, "history": true}

// Expand returns prompt with every reference it knows expanded, and the
// images @file attached (for the prompt's message).
func (x *Expander) Expand(ctx context.Context, prompt string) (string, []message.Image, error) {
	if !strings.Contains(prompt, "@") {
		return prompt, nil, nil
	}
	var images []message.Image
	lines := strings.Split(prompt, "\n")
	for i, line := range lines {
		out, err := x.expandLine(ctx, line, &images)
		if err != nil {
			return "", nil, err
		}
		lines[i] = out
	}
	return strings.Join(lines, "\n"), images, nil
}

func (x *Expander) expandLine(ctx context.Context, line string, images *[]message.Image) (string, error) {
	var b strings.Builder
	rest := line
	for {
		at := indexRef(rest)
		if at < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:at])
		name, after := word(rest[at+1:])
		var arg string
		switch {
		case restOfLine[name]:
			arg, after = strings.TrimSpace(after), ""
		case oneWord[name]:
			arg, after = word(strings.TrimLeft(after, " \t"))
		case !noArg[name]:
			b.WriteString("@")
			rest = rest[at+1:]
			continue
		}
		block, ok, err := x.expand(ctx, name, arg, images)
		if err != nil {
			return "", err
		}
		if !ok { // turned off: as typed
			b.WriteString(rest[at : len(rest)-len(after)])
		} else {
			b.WriteString(block)
		}
		rest = after
	}
}

// indexRef is the index of the first '@' of s at the start or after a
// space, -1 when none.
func indexRef(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '@' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t') {
			return i
		}
	}
	return -1
}

// word splits s at its first space or tab.
func word(s string) (string, string) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

// expand returns the block of one reference; ok is false when the
// reference is turned off.
func (x *Expander) expand(ctx context.Context, name, arg string, images *[]message.Image) (string, bool, error) {
	var body, label string
	var err error
	switch name {
	case "file":
		if arg == "" {
			return "", false, i18n.Errorf("@file needs a path")
		}
		var img *message.Image
		body, img, err = x.file(arg)
		label = arg
		if img != nil {
			*images = append(*images, *img)
			if x.Notify != nil {
				x.Notify(fmt.Sprintf("attached image %s, %s", arg, humanize.IBytes(uint64(len(img.Data)*3/4))))
			}
			return fmt.Sprintf("@file %s [image %s attached to this message]", arg, img.MediaType), true, nil
		}
	case "command":
		if x.Run == nil {
			return "", false, nil
		}
		if arg == "" {
			return "", false, i18n.Errorf("@command needs a command line")
		}
		body, err = x.Run(ctx, arg)
		label = "output of " + arg
	case "git":
		body, err = x.git(ctx)
		label = "git state"
	case "env":
		if x.Environ == nil {
			return "", false, nil
		}
		body, label = redactedEnv(x.Environ()), "environment (secrets redacted)"
	case "history":
		if x.HistoryFile == "" {
			return "", false, nil
		}
		body, err = tail(x.HistoryFile, 20)
		label = "shell history"
	case "recall":
		if x.Recall == nil {
			return "", false, nil
		}
		body, err = x.Recall(arg)
		label = "recalled turn " + arg
	case "session":
		if x.Search == nil {
			return "", false, nil
		}
		body, err = x.sessions(arg)
		label = "session search " + arg
	}
	if err != nil {
		return "", false, i18n.Errorf("@%s %s: %w", name, arg, err)
	}
	if x.Notify != nil {
		x.Notify(fmt.Sprintf("attached %s, %s", label, humanize.IBytes(uint64(len(body)))))
	}
	head := strings.TrimSpace("@" + name + " " + arg)
	return fmt.Sprintf("%s\n<%s %q>\n%s\n</%s>", head, name, arg, strings.TrimRight(body, "\n"), name), true, nil
}
