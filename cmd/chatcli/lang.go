package main

import (
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/i18n"
)

// lang is the language of the process's messages (i18n.FromEnv): the
// environment over the config file. The file is read here when nothing
// has read it yet, so --help and early errors speak the language it
// sets; a file that cannot be read is left to settings to report.
func (f *factory) lang() *i18n.Printer {
	if f.file == nil {
		if file, err := config.LoadFile(config.FilePath(f.getenv)); err == nil {
			f.file = file
		}
	}
	return i18n.FromEnv(f.file.Getenv(f.getenv))
}
