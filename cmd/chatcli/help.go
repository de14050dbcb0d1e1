package main

import (
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/chatcli/chatcli/internal/i18n"
)

// helpWidth is the width, in columns, flag help lines are wrapped to.
const helpWidth = 80

// usageTemplate is cobra's usage template (its commands without groups,
// as chatcli's are) with the headings in lang and the flags' lines
// wrapped to helpWidth columns.
func usageTemplate(lang *i18n.Printer) string {
	flags := func(set string) string {
		return "{{." + set + ".FlagUsagesWrapped " + strconv.Itoa(helpWidth) + " | trimTrailingWhitespaces}}"
	}
	return lang.Sprintf("Usage:") + `{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

` + lang.Sprintf("Aliases:") + `
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

` + lang.Sprintf("Examples:") + `
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

` + lang.Sprintf("Available Commands:") + `{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

` + lang.Sprintf("Flags:") + "\n" + flags("LocalFlags") + `{{end}}{{if .HasAvailableInheritedFlags}}

` + lang.Sprintf("Global Flags:") + "\n" + flags("InheritedFlags") + `{{end}}{{if .HasAvailableSubCommands}}

` + lang.Sprintf("Use \"%s [command] --help\" for more information about a command.", "{{.CommandPath}}") + `{{end}}
`
}

// localizeHelp makes root's help and usage speak the process's language
// (f.lang, asked when help is shown): the headings, and the summaries
// and flag lines the help catalog holds (i18n.Printer.Help). Flag lines
// are wrapped to helpWidth columns in every language.
func localizeHelp(root *cobra.Command, f *factory) {
	root.SetUsageTemplate(usageTemplate(nil))
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		lang := f.lang()
		if lang.Tag() == i18n.Portuguese {
			root.SetUsageTemplate(usageTemplate(lang))
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
		fl.Usage = lang.Help(fl.Usage)
	}
	c.InitDefaultHelpFlag()
	c.LocalFlags().VisitAll(say)
	c.InheritedFlags().VisitAll(say)
}
