package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/bootstrap"
	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/memory"
)

// supplier makes the system content of every request of an engine working
// in dir ("" for the working directory): the bootstrap files of dir and
// CHATCLI_HOME, the memory, the attached contexts (contexts.Supplier).
func (f *factory) supplier(c config.Config, dir string, notify func(string)) *contexts.Supplier {
	if dir == "" {
		dir = f.workdir
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	s := &contexts.Supplier{Bootstrap: bootstrap.NewLoader(dir, c.Home), Memory: memory.Open(c.Home, c.EncryptionKey),
		Contexts: contexts.Open(c.Home, c.EncryptionKey), Notify: notify}
	return s
}

const memoryLong = `Global memory: short notes sent with every request of every session,
newest first within 8 KiB (a line says how many older ones were left out).
Stored in $CHATCLI_HOME/memory/notes.json, sealed when CHATCLI_ENCRYPTION_KEY
is set. The same verbs as /memory in the REPL:

  chatcli memory save TEXT…   add a note (at most 4 KiB)
  chatcli memory list         the notes, numbered oldest first
  chatcli memory forget N     remove note N
  chatcli memory show         exactly what each request includes`

const contextLong = `Contexts: snapshots of files and folders (.gitignore honoured, binary files
skipped, at most 4 MiB of text, in chunks of 4 KiB) kept in
$CHATCLI_HOME/contexts/, sealed when CHATCLI_ENCRYPTION_KEY is set.

  chatcli context create NAME PATH…   snapshot files and folders
  chatcli context list                the contexts
  chatcli context show NAME           its files and chunk numbers
  chatcli context delete NAME --yes   remove it
  chatcli context                     the bootstrap files and memory found

Attach one to a conversation in the REPL (or a piped script):
/context attach NAME [--priority N] [--chunks 1,3-5] [--mode full|retrieval].
The session file records it; loading or resuming the session attaches it
again (a deleted context is skipped with a note); a fork keeps it.`

// newMemoryCmd is `chatcli memory …` and newContextCmd `chatcli context …`:
// the REPL's /memory and /context without a conversation.
func newMemoryCmd(f *factory) *cobra.Command {
	return slashVerbCmd(f, "memory", "Save, list and forget the notes sent with every request", memoryLong)
}

func newContextCmd(f *factory) *cobra.Command {
	return slashVerbCmd(f, "context", "Create, list, show and delete contexts (snapshots of files)", contextLong)
}

// slashVerbCmd runs the slash command name with the arguments given.
func slashVerbCmd(f *factory, name, short, long string) *cobra.Command {
	return &cobra.Command{
		Use:                name + " [VERB] [ARGS…]",
		Short:              short,
		Long:               long,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
				return cmd.Help()
			}
			c, err := f.settings()
			if err != nil {
				return err
			}
			env := &command.Env{Out: f.streams.Out, Err: f.streams.Err, Config: &c, Interactive: false, Lang: f.lang(), Width: f.tableWidth, ErrWidth: f.errWidth, Headless: true}
			return command.Run(context.Background(), env, name, args)
		},
	}
}
