package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/session"
)

// completionTitleChars clips the title shown beside a completed name.
const completionTitleChars = 50

// sessionNames completes session names (each with its title as the
// description the shells show beside it) for the positional argument at
// index pos; other positions complete nothing.
func sessionNames(f *factory, pos int) cobra.CompletionFunc {
	return storeCompletion(f, pos, func(st *session.Store, toComplete string) ([]cobra.Completion, error) {
		list, err := st.List()
		var out []cobra.Completion
		for _, h := range list {
			if strings.HasPrefix(h.Name, toComplete) {
				out = append(out, cobra.CompletionWithDesc(h.Name, render.VisibleLine(message.Clip(h.Title, completionTitleChars))))
			}
		}
		return out, err
	})
}

// trashedNames completes the names of the sessions in the trash.
func trashedNames(f *factory) cobra.CompletionFunc {
	return storeCompletion(f, 0, func(st *session.Store, toComplete string) ([]cobra.Completion, error) {
		entries, err := st.TrashList()
		var out []cobra.Completion
		seen := map[string]bool{}
		for _, e := range entries {
			if !seen[e.Name] && strings.HasPrefix(e.Name, toComplete) {
				seen[e.Name] = true
				out = append(out, e.Name)
			}
		}
		return out, err
	})
}

// storeCompletion completes the positional argument at index pos with what
// names finds in the store; a store that cannot be read completes nothing.
func storeCompletion(f *factory, pos int, names func(st *session.Store, toComplete string) ([]cobra.Completion, error)) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) != pos {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		st, err := f.storeFromEnv()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		out, err := names(st, toComplete)
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeSessionVerbs gives every `chatcli session` verb that takes a
// session its completion: the existing name first (SRC, OLD), the trashed
// name for restore, the format after export's NAME.
func completeSessionVerbs(f *factory, session *cobra.Command) {
	names := sessionNames(f, 0)
	for _, c := range session.Commands() {
		switch c.Name() {
		case "show", "delete", "fork", "rename", "rewind", "tree":
			c.ValidArgsFunction = names
		case "export":
			c.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
				if len(args) == 1 {
					return []cobra.Completion{"md", "jsonl"}, cobra.ShellCompDirectiveNoFileComp
				}
				if len(args) == 2 {
					return nil, cobra.ShellCompDirectiveDefault // PATH
				}
				return names(cmd, args, toComplete)
			}
		case "restore":
			c.ValidArgsFunction = trashedNames(f)
		}
	}
}

// completeRootFlags completes --resume and --session with session names,
// and the NAME after a bare --resume (an argument to pflag, see rootArgs).
func completeRootFlags(f *factory, root *cobra.Command, o *rootOptions) {
	names := sessionNames(f, 0)
	root.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if o.Resume != pickMarker {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return names(cmd, args, toComplete)
	}
	flagNames := func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return names(cmd, nil, toComplete)
	}
	for _, fl := range []string{"resume", "session"} {
		_ = root.RegisterFlagCompletionFunc(fl, flagNames) // the flags exist: it cannot fail
	}
}
