package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// addCobraCommands adds cobra's own help and completion commands to root
// now, rather than at Execute, so translateHelp says their summaries in
// the process's language as it does chatcli's (the help catalog holds
// them). The bash completion text's line of 81 columns is wrapped to 80.
func addCobraCommands(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		for _, sh := range c.Commands() {
			if sh.Name() == "bash" {
				sh.Long = strings.Replace(sh.Long, "you can install it via your OS's package manager.",
					"you can install it via your OS's\npackage manager.", 1)
			}
		}
	}
}
