package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatcli/chatcli/internal/i18n"
)

// helpWidth is the width, in columns, flag help lines are wrapped to.
const helpWidth = 80

// writeUsage writes c's usage as cobra's default usage does (its
// commands without groups, as chatcli's are) to c.OutOrStderr(), with
// the headings in lang (nil: English) and the flags' lines wrapped to
// helpWidth columns. It is a Go function, not a cobra usage template:
// a template links text/template, whose method calls keep every
// exported method of every package in the binary (tens of megabytes,
// bench/binsize.sh).
func writeUsage(c *cobra.Command, lang *i18n.Printer) error {
	var b strings.Builder
	b.WriteString(lang.Sprintf("Usage:"))
	if c.Runnable() {
		b.WriteString("\n  " + c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n  " + c.CommandPath() + " [command]")
	}
	if len(c.Aliases) > 0 {
		b.WriteString("\n\n" + lang.Sprintf("Aliases:") + "\n  " + c.NameAndAliases())
	}
	if c.HasExample() {
		b.WriteString("\n\n" + lang.Sprintf("Examples:") + "\n" + c.Example)
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\n" + lang.Sprintf("Available Commands:"))
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				fmt.Fprintf(&b, "\n  %-*s %s", sub.NamePadding(), sub.Name(), sub.Short)
			}
		}
	}
	flags := func(heading string, set *pflag.FlagSet) {
		b.WriteString("\n\n" + heading + "\n" +
			strings.TrimRightFunc(set.FlagUsagesWrapped(helpWidth), unicode.IsSpace))
	}
	if c.HasAvailableLocalFlags() {
		flags(lang.Sprintf("Flags:"), c.LocalFlags())
	}
	if c.HasAvailableInheritedFlags() {
		flags(lang.Sprintf("Global Flags:"), c.InheritedFlags())
	}
	if c.HasAvailableSubCommands() {
		b.WriteString("\n\n" + lang.Sprintf("Use \"%s [command] --help\" for more information about a command.", c.CommandPath()))
	}
	b.WriteString("\n")
	_, err := io.WriteString(c.OutOrStderr(), b.String())
	return err
}

// localizeHelp makes root's help and usage speak the process's language
// (f.lang, asked when help is shown): the headings, and the summaries
// and flag lines the help catalog holds (i18n.Printer.Help). Flag lines
// are wrapped to helpWidth columns in every language.
func localizeHelp(root *cobra.Command, f *factory) {
	var usageLang *i18n.Printer // English until help is shown in another language
	root.SetUsageFunc(func(c *cobra.Command) error { return writeUsage(c, usageLang) })
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		lang := f.lang()
		if lang.Tag() == i18n.Portuguese {
			usageLang = lang
			translateHelp(c, lang)
		}
		help(c, args)
	})
}

// translateHelp says the summary and text of c, the summaries of its
// subcommands and the lines of the flags c's help shows in lang, where
// the catalog has them.
func translateHelp(c *cobra.Command, lang *i18n.Printer) {
	c.Short, c.Long = lang.Help(c.Short), lang.Help(c.Long)
	for _, sub := range c.Commands() {
		sub.Short = lang.Help(sub.Short)
	}
	say := func(fl *pflag.Flag) {
		if fl.Name == "help" {
			fl.Usage = lang.Sprintf("help for %s", c.Name())
			return
		}
		if fl.Name == "version" && fl.Usage == "version for "+c.Name() { // cobra's
			fl.Usage = lang.Sprintf("version for %s", c.Name())
			return
		}
		fl.Usage = lang.Help(fl.Usage)
	}
	c.InitDefaultHelpFlag()
	c.LocalFlags().VisitAll(say)
	c.InheritedFlags().VisitAll(say)
}

// quietDefault keeps pflag from appending "(default V)", in English
// whatever the language, to the help line of the int flag fl, whose
// usage says its default itself.
func quietDefault(fl *pflag.Flag) { fl.DefValue = "0" }
