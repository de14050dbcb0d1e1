package main

import (
	"io"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/i18n"
)

// lang is the language of the process's messages (i18n.FromEnv): the
// environment over the config file. The file is read here when nothing
// has read it yet, so --help and early errors speak the language it
// sets; a file that cannot be read is left to settings to report.
// The choice is made once per process; lang may be called from any
// goroutine (the retention pass and the file layer note from theirs).
func (f *factory) lang() *i18n.Printer {
	f.langMu.Lock()
	defer f.langMu.Unlock()
	if f.printer != nil {
		return f.printer
	}
	if f.file == nil {
		if file, err := config.LoadFile(config.FilePath(f.getenv)); err == nil {
			f.file = file
		}
	}
	f.printer = i18n.FromEnv(f.file.Getenv(f.getenv))
	return f.printer
}

// noticeLang is the language of the engines' notices: lang, with numbers
// ungrouped when they go into -p --json or --stream-json output.
func (f *factory) noticeLang() *i18n.Printer {
	if f.machineNotices {
		return f.lang().Plain()
	}
	return f.lang()
}

// note writes line on the error stream as a notice: "note: line" in
// English, "nota: line" in Portuguese, wrapped to a terminal's width.
func (f *factory) note(line string) { f.sayErr("note: %s\n", line) }

// warn writes line on the error stream as a warning: "warning: line" in
// English, "aviso: line" in Portuguese, wrapped to a terminal's width.
func (f *factory) warn(line string) { f.sayErr("warning: %s\n", line) }

// sayErr writes the message whose English format is key to the error
// stream in the process's language, wrapped at its spaces to the width of
// the terminal it is (errWidth); off a terminal, as it is.
func (f *factory) sayErr(key string, args ...any) {
	io.WriteString(f.streams.Err, command.WrapText(f.lang().Sprintf(key, args...), f.errWidth()))
}
