package command

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/dustin/go-humanize"

	"github.com/chatcli/chatcli/internal/bootstrap"
	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/memory"
)

const contextUsage = "/context [create NAME PATH… | list | show NAME | delete NAME [--yes] | attach NAME [--priority N] [--chunks LIST] [--mode full|retrieval] | detach NAME|--all]"

// contextHeadless is contextUsage's headless form, whose verbs need no
// conversation.
const contextHeadless = "chatcli context [create NAME PATH… | list | show NAME | delete NAME --yes]"

// contextStore opens the contexts of the configured CHATCLI_HOME.
func contextStore(env *Env) (*contexts.Store, error) {
	if env.Config == nil {
		return nil, i18n.Errorf("contexts are not available here (no configuration)")
	}
	return contexts.Open(env.Config.Home, env.Config.EncryptionKey), nil
}

// runContext is /context (and `chatcli context`): snapshots of files and
// folders, attached to the conversation (internal/contexts); without a
// verb, what reaches each request besides the history.
func runContext(_ context.Context, env *Env, args []string) error {
	st, err := contextStore(env)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return contextStatus(env, st)
	}
	rest, yes := stripYes(args[1:])
	switch args[0] {
	case "create":
		if len(rest) < 2 {
			return fmt.Errorf("%w: %s", ErrUsage, env.usage("/context create NAME PATH…", "chatcli context create NAME PATH…"))
		}
		c, err := st.Create(rest[0], rest[1:])
		if c == nil {
			return err
		}
		files, bytes, chunks := filesIn(env.Lang, len(c.Files)), size(env.Lang, c.Bytes()), chunksIn(env.Lang, len(c.Chunks))
		if env.Headless {
			env.say("Created context %q: %s, %s in %s (left out: %d by .gitignore, %d binary). /context attach %s, in the REPL or a script piped to chatcli, sends it.\n",
				c.Name, files, bytes, chunks, c.Skipped.Ignored, c.Skipped.Binary, c.Name)
		} else {
			env.say("Created context %q: %s, %s in %s (left out: %d by .gitignore, %d binary). /context attach %s sends it.\n",
				c.Name, files, bytes, chunks, c.Skipped.Ignored, c.Skipped.Binary, c.Name)
		}
		return err
	case "list":
		return contextList(env, st)
	case "show":
		if len(rest) != 1 {
			return fmt.Errorf("%w: %s", ErrUsage, env.usage("/context show NAME", "chatcli context show NAME"))
		}
		return contextShow(env, st, rest[0])
	case "delete":
		if len(rest) != 1 {
			return fmt.Errorf("%w: %s", ErrUsage, env.usage("/context delete NAME [--yes]", "chatcli context delete NAME --yes"))
		}
		if !yes && (!env.Interactive || env.Confirm == nil) {
			if env.Headless {
				return i18n.Errorf("%w: deleting needs confirmation: chatcli context delete %s --yes", ErrUsage, rest[0])
			}
			return i18n.Errorf("%w: deleting needs confirmation: /context delete %s --yes", ErrUsage, rest[0])
		}
		if !yes && !env.Confirm(env.Lang.Sprintf("Delete context %q?", rest[0])) {
			return nil
		}
		if err := st.Delete(rest[0]); err != nil {
			return err
		}
		env.say("Deleted context %q; sessions that attached it skip it from now on.\n", rest[0])
		return nil
	case "attach":
		return contextAttach(env, st, rest)
	case "detach":
		return contextDetach(env, rest)
	}
	if env.Headless {
		return i18n.Errorf("%w: unknown verb %q of chatcli context; %s", ErrUsage, args[0], contextHeadless)
	}
	return i18n.Errorf("%w: unknown /context verb %q; %s", ErrUsage, args[0], contextUsage)
}

// attachments reads the conversation's records; errUnbound without one.
func attachments(env *Env) ([]contexts.Attachment, error) {
	if env.Engine == nil {
		return nil, i18n.Errorf("%w: attaching needs a conversation (the REPL, or a script piped to chatcli)", ErrUsage)
	}
	return contexts.ParseAttachments(env.Engine.Attachments())
}

func setAttachments(env *Env, list []contexts.Attachment) error {
	raw, err := contexts.EncodeAttachments(list)
	if err != nil {
		return err
	}
	return env.Engine.SetAttachments(raw)
}

func contextAttach(env *Env, st *contexts.Store, args []string) error {
	list, err := attachments(env)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: /context attach NAME [--priority N] [--chunks LIST] [--mode full|retrieval]", ErrUsage)
	}
	c, err := st.Load(args[0])
	if err != nil {
		return err
	}
	a := contexts.Attachment{ContextID: c.Name, Mode: contexts.ModeFull}
	for i := 1; i < len(args); i++ {
		flag, val, hasVal := strings.Cut(args[i], "=")
		if !hasVal {
			if i+1 >= len(args) {
				return fmt.Errorf("%w: %s needs a value", ErrUsage, flag)
			}
			i++
			val = args[i]
		}
		switch flag {
		case "--priority":
			if a.Priority, err = strconv.Atoi(val); err != nil {
				return i18n.Errorf("%w: --priority %q is not a whole number", ErrUsage, val)
			}
		case "--chunks":
			if a.SelectedChunks, err = contexts.ParseChunkList(val, len(c.Chunks)); err != nil {
				return fmt.Errorf("%w: %v", ErrUsage, err)
			}
		case "--mode":
			if val != contexts.ModeFull && val != contexts.ModeRetrieval {
				return i18n.Errorf("%w: --mode is full or retrieval, not %q", ErrUsage, val)
			}
			a.Mode = val
		default:
			return i18n.Errorf("%w: unknown option %q of /context attach", ErrUsage, flag)
		}
	}
	if err := setAttachments(env, contexts.Put(list, a)); err != nil {
		return err
	}
	n := len(a.SelectedChunks)
	if n == 0 {
		n = len(c.Chunks)
	}
	env.say("Attached context %q (%s, priority %d, %d of %d chunks); each request includes it.\n", c.Name, a.Mode, a.Priority, n, len(c.Chunks))
	// About 4 bytes a token: a full context over half the window leaves
	// little room for the conversation.
	if tokens, window := c.Bytes()*n/max(len(c.Chunks), 1)/4, env.Engine.ContextWindow(); a.Mode == contexts.ModeFull && tokens > window/2 {
		env.warn(env.Lang.Sprintf("context %q is about %d tokens, more than half of the model's %d-token window; --mode retrieval sends only the chunks relevant to each prompt", c.Name, tokens, window))
	}
	return nil
}

func contextDetach(env *Env, args []string) error {
	list, err := attachments(env)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return fmt.Errorf("%w: /context detach NAME|--all", ErrUsage)
	}
	if args[0] == "--all" {
		env.say("Detached %d contexts.\n", len(list))
		return setAttachments(env, nil)
	}
	rest, ok := contexts.Without(list, args[0])
	if !ok {
		return i18n.Errorf("%w: context %q is not attached", contexts.ErrNotFound, args[0])
	}
	env.say("Detached context %q.\n", args[0])
	return setAttachments(env, rest)
}

func contextList(env *Env, st *contexts.Store) error {
	names, err := st.List()
	if err != nil {
		return err
	}
	if len(names) == 0 {
		if env.Headless {
			env.say("No contexts (`chatcli context create NAME PATH…` makes one).\n")
		} else {
			env.say("No contexts (/context create NAME PATH… makes one).\n")
		}
		return nil
	}
	attached := map[string]bool{}
	if env.Engine != nil {
		list, _ := contexts.ParseAttachments(env.Engine.Attachments())
		for _, a := range list {
			attached[a.ContextID] = true
		}
	}
	lang := env.Lang
	rows := [][]string{{lang.Sprintf("NAME"), lang.Sprintf("FILES"), lang.Sprintf("SIZE"), lang.Sprintf("CHUNKS"), lang.Sprintf("CREATED"), ""}}
	for _, n := range names {
		c, err := st.Load(n)
		if err != nil {
			env.warn(ErrorLineIn(env.Lang, err))
			continue
		}
		mark := ""
		if attached[n] {
			mark = lang.Sprintf("attached")
		}
		rows = append(rows, []string{n, strconv.Itoa(len(c.Files)), size(env.Lang, c.Bytes()), strconv.Itoa(len(c.Chunks)), c.CreatedAt.Format("2006-01-02 15:04"), mark})
	}
	writeAligned(env.Out, rows, []colFit{name, keep, keep, keep, keep, keep}, env.width())
	return nil
}

func contextShow(env *Env, st *contexts.Store, name string) error {
	c, err := st.Load(name)
	if err != nil {
		return err
	}
	lang := env.Lang
	out, flush := WrapTo(env.Out, env.width())
	defer flush()
	lang.Fprintf(out, "Context %q, created %s from %s: %s, %s in %s (left out: %d by .gitignore, %d binary)\n",
		c.Name, c.CreatedAt.Format("2006-01-02 15:04"), strings.Join(c.Sources, ", "), filesIn(lang, len(c.Files)), size(lang, c.Bytes()), chunksIn(lang, len(c.Chunks)), c.Skipped.Ignored, c.Skipped.Binary)
	first := 1
	for _, f := range c.Files {
		last := first + f.Chunks - 1
		chunks := lang.Sprintf("chunks %d-%d", first, last)
		if last == first {
			chunks = lang.Sprintf("chunk %d", first)
		}
		fmt.Fprintf(out, "  %-40s %9s  %s\n", f.Path, size(lang, f.Bytes), chunks)
		first = last + 1
	}
	return nil
}

// contextStatus says what reaches each request besides the history: the
// bootstrap files found, the memory notes, the attached contexts.
func contextStatus(env *Env, st *contexts.Store) error {
	wd, _ := os.Getwd()
	files, warns := bootstrap.NewLoader(wd, env.Config.Home).Load()
	lang := env.Lang
	out, flush := WrapTo(env.Out, env.width())
	defer flush()
	lang.Fprintf(out, "Bootstrap files (working folder, then %s; cap %s each):\n", env.Config.Home, size(lang, bootstrap.MaxFileBytes))
	if len(files) == 0 {
		lang.Fprintf(out, "  none of %s found\n", strings.Join(bootstrap.Names, ", "))
	}
	for _, f := range files {
		cut := ""
		if f.Truncated {
			cut = lang.Sprintf(" (cut to %s)", size(lang, len(f.Content)))
		}
		fmt.Fprintf(out, "  %-12s %9s  %s%s\n", f.Name, size(lang, int(f.SizeBytes)), f.Path, cut)
	}
	for _, w := range warns {
		lang.Fprintf(out, "  warning: %s\n", w)
	}
	notes, err := memory.Open(env.Config.Home, env.Config.EncryptionKey).List()
	if err != nil {
		lang.Fprintf(out, "Memory: %v\n", err)
	} else {
		if env.Headless {
			lang.Fprintf(out, "Memory: %d notes (`chatcli memory show`)\n", len(notes))
		} else {
			lang.Fprintf(out, "Memory: %d notes (/memory show)\n", len(notes))
		}
	}
	if env.Engine == nil {
		return nil
	}
	list, err := contexts.ParseAttachments(env.Engine.Attachments())
	if err != nil {
		return err
	}
	lang.Fprintf(out, "Attached contexts: %d\n", len(list))
	for _, a := range contexts.ByPriority(list) {
		state := ""
		if _, err := st.Load(a.ContextID); errors.Is(err, contexts.ErrNotFound) {
			state = lang.Sprintf(" (missing: skipped)")
		}
		lang.Fprintf(out, "  %s %s, priority %d%s\n", fmt.Sprintf("%-20s", a.ContextID), a.Mode, a.Priority, state)
	}
	return nil
}

// filesIn is "1 file" or "N files" in lang; chunksIn the same of chunks.
func filesIn(lang *i18n.Printer, n int) string { return lang.Sprintf("%d files", n) }

func chunksIn(lang *i18n.Printer, n int) string { return lang.Sprintf("%d chunks", n) }

// size is n bytes for people in lang: "4.2 KiB" ("4,2 KiB").
func size(lang *i18n.Printer, n int) string { return lang.Decimal(humanize.IBytes(uint64(max(n, 0)))) }
