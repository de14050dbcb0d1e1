package command

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/config"
)

// runConfig is /config [session]: every setting, or the session settings
// with the bound session and the active journal.
func runConfig(_ context.Context, env *Env, args []string) error {
	if len(args) > 1 || len(args) == 1 && args[0] != "session" {
		return i18n.Errorf("%w: /config or /config session", ErrUsage)
	}
	if env.Config == nil {
		return i18n.Errorf("%w: no configuration available here", ErrUsage)
	}
	if len(args) == 0 {
		WriteSettings(env.Lang, env.Out, *env.Config, "", env.width())
		return nil
	}
	WriteSessionConfig(env.Lang, env.Out, *env.Config, env.Engine.Bound(), env.Engine.JournalID(), env.width())
	return nil
}

// WriteSettings prints every setting (config.Config.AllSettings) with its
// value and source in lang, after the config file's path when it is
// known, fitted to width (a terminal's; 0 cuts nothing: writeRows). Names
// and values are never translated.
func WriteSettings(lang *i18n.Printer, w io.Writer, c config.Config, file string, width int) {
	if file != "" {
		state := ""
		if _, err := os.Stat(file); err != nil {
			state = lang.Sprintf(" (none)")
		}
		lang.Fprintf(w, "config file: %s%s\n", file, state)
	}
	writeSettingRows(lang, w, c.AllSettings(), width)
}

// writeSettingRows prints settings as a table of their names, values and
// sources in lang, fitted to width.
func writeSettingRows(lang *i18n.Printer, w io.Writer, list []config.Setting, width int) {
	var rows [][]string
	for _, s := range list {
		rows = append(rows, []string{s.Name, valueIn(lang, s), settingSource(lang, s)})
	}
	writeRows(w, headings(lang.Sprintf("SETTING\tVALUE\tSOURCE\n")), rows, []colFit{name, wrap, wrap}, width)
}

// valueIn is a setting's value in lang: a value that is prose (its Said),
// "not set", "set" and what CHATCLI_ENCRYPTION_KEY's state says are said
// in lang, any other value is the setting's own.
func valueIn(lang *i18n.Printer, s config.Setting) string {
	if !s.Said.IsZero() {
		return lang.Text(s.Said)
	}
	switch v := s.Value; v {
	case "not set":
		return lang.Sprintf("not set")
	case "set":
		return lang.Sprintf("set")
	case "not set (files are plaintext)":
		return lang.Sprintf("not set (files are plaintext)")
	case "set (sessions and journals are sealed)":
		return lang.Sprintf("set (sessions and journals are sealed)")
	case "set, a passphrase (Argon2id, salt in " + config.KeySaltFileName + "; sessions and journals are sealed)":
		return lang.Sprintf("set, a passphrase (Argon2id, salt in %s; sessions and journals are sealed)", config.KeySaltFileName)
	}
	return s.Value
}

// WriteSessionConfig prints every session setting with its value and
// source in lang, fitted to width as WriteSettings, then the bound
// session and the active journal id.
func WriteSessionConfig(lang *i18n.Printer, w io.Writer, c config.Config, bound, journalID string, width int) {
	writeSettingRows(lang, w, c.SessionSettings(), width)
	if bound == "" {
		bound = lang.Sprintf("(none)")
	}
	if journalID == "" {
		journalID = lang.Sprintf("(none yet)")
		if !c.Transcript {
			journalID = lang.Sprintf("(journal off)")
		}
	}
	lang.Fprintf(w, "bound session: %s\nactive journal: %s\n", bound, journalID)
}

// settingSource is where s's value comes from in lang: its source, or
// the flag or command that chose the value over it, with the source it
// replaced.
func settingSource(lang *i18n.Printer, s config.Setting) string {
	src := sourceIn(lang, s.Source)
	switch {
	case s.By == "":
		return src
	case strings.HasPrefix(s.By, "/"):
		return lang.Sprintf("this session (%s; was: %s)", s.By, src)
	}
	return lang.Sprintf("command line (%s; was: %s)", s.By, src)
}

// sourceIn is a setting's source (config.Setting.Source) in lang; a
// file's path and line stay as they are.
func sourceIn(lang *i18n.Printer, src string) string {
	switch src {
	case "environment":
		return lang.Sprintf("environment")
	case "default":
		return lang.Sprintf("default")
	case "detected from the API settings":
		return lang.Sprintf("detected from the API settings")
	case "follows CHATCLI_SESSION_AUTOSAVE":
		return lang.Sprintf("follows %s", "CHATCLI_SESSION_AUTOSAVE")
	}
	if model, ok := strings.CutPrefix(src, "default (ChatCLI's default is "); ok {
		return lang.Sprintf("default (ChatCLI's default is %s)", strings.TrimSuffix(model, ")"))
	}
	return src
}
