package command

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/search"
)

// defaultShowCount is how many messages `transcript show N` prints.
const defaultShowCount = 10

// searchHits is how many hits a search prints.
const searchHits = 10

func sessionTranscript(env *Env, a []string, yes bool) error {
	usage := fmt.Errorf("%w: /session transcript show N [COUNT] | stats | search QUERY | export [md|jsonl] [PATH] [--yes]", ErrUsage)
	if len(a) == 0 {
		return usage
	}
	switch a[0] {
	case "export": // the specification's name of /session export; Markdown unless told
		rest := a[1:]
		if len(rest) == 0 || rest[0] != "md" && rest[0] != "jsonl" {
			rest = append([]string{"md"}, rest...)
		}
		return sessionExport(env, rest, yes)
	case "show", "stats":
		t, err := env.Engine.Transcript()
		if err != nil {
			return err
		}
		warnSaid(env, t.Warnings)
		return transcriptRead(env, a, t.Messages, t.Source, usage)
	case "search":
		if len(a) < 2 {
			return usage
		}
		stop := env.progress(env.Lang.Sprintf("searching"))
		hits, warnings, err := env.Engine.SearchTranscript(strings.Join(a[1:], " "), searchHits)
		stop()
		warnSaid(env, warnings)
		if err != nil {
			return searchError(err)
		}
		WriteHits(env.Lang, env.Out, hits, false)
		return nil
	}
	return usage
}

// transcriptRead runs `transcript show` and `transcript stats`.
func transcriptRead(env *Env, a []string, msgs []message.Message, source string, usage error) error {
	switch a[0] {
	case "show":
		if len(a) < 2 || len(a) > 3 {
			return usage
		}
		from, err1 := strconv.Atoi(a[1])
		count, err2 := defaultShowCount, error(nil)
		if len(a) == 3 {
			count, err2 = strconv.Atoi(a[2])
		}
		if err1 != nil || err2 != nil || from < 1 || count < 1 {
			return i18n.Errorf("%w: N and COUNT are positive numbers: /session transcript show N [COUNT]", ErrUsage)
		}
		return ShowTranscript(env.Lang, env.Out, msgs, from, count)
	case "stats":
		WriteStats(env.Lang, env.Out, msgs, source, env.Engine.JournalID())
		return nil
	}
	return usage
}

// searchError turns an empty query into a usage error.
func searchError(err error) error {
	if errors.Is(err, search.ErrEmptyQuery) {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return err
}

// ShowTranscript prints count messages starting at 1-based position from.
func ShowTranscript(lang *i18n.Printer, w io.Writer, msgs []message.Message, from, count int) error {
	if from > len(msgs) {
		return i18n.Errorf("%w: the transcript has %d messages; #%d does not exist", ErrUsage, len(msgs), from)
	}
	end := min(from-1+count, len(msgs))
	writeMessages(nil, w, msgs[from-1:end], from)
	lang.Fprintf(w, "\n(messages %d-%d of %d)\n", from, end, len(msgs))
	return nil
}

// WriteStats prints message count, bytes of text, source and journal id
// in lang.
func WriteStats(lang *i18n.Printer, w io.Writer, msgs []message.Message, source, journalID string) {
	size := 0
	roles := map[message.Role]int{}
	for _, m := range msgs {
		size += len(m.Content)
		for _, c := range m.ToolCalls {
			size += len(c.Arguments)
		}
		roles[m.Role]++
	}
	if journalID == "" {
		journalID = lang.Sprintf("(none)")
	}
	lang.Fprintf(w, "messages: %d (user %d, assistant %d, tool %d, system %d)\n", len(msgs),
		roles[message.RoleUser], roles[message.RoleAssistant], roles[message.RoleTool], roles[message.RoleSystem])
	lang.Fprintf(w, "bytes:    %d\nsource:   %s\njournal:  %s\n", size, source, journalID)
}

// WriteHits prints search hits, one per line: "#17 assistant …snippet…",
// prefixed with the source when withSource; no hits is a line in lang
// (nil: English).
func WriteHits(lang *i18n.Printer, w io.Writer, hits []search.Hit, withSource bool) {
	if len(hits) == 0 {
		lang.Fprintf(w, "No matches.\n")
		return
	}
	for _, h := range hits {
		prefix := ""
		if withSource {
			prefix = render.VisibleLine(h.Doc.Source) + " "
		}
		fmt.Fprintf(w, "%s#%d %s %s\n", prefix, h.Doc.Position, h.Doc.Role, render.VisibleLine(h.Snippet))
	}
}

func sessionExport(env *Env, a []string, yes bool) error {
	if len(a) < 1 || len(a) > 2 {
		return fmt.Errorf("%w: /session export md|jsonl [PATH] [--yes]", ErrUsage)
	}
	t, err := env.Engine.Transcript()
	if err != nil {
		return err
	}
	warnSaid(env, t.Warnings)
	msgs, source := t.Messages, t.Source
	name := env.Engine.Bound()
	if name == "" {
		name = "unsaved"
	}
	path := ""
	if len(a) == 2 {
		path = a[1]
	}
	if path == "" && !env.Engine.Store().Key().IsZero() {
		path = "-" // an encrypted store gets no plaintext copy unless a PATH asks for one
	}
	confirm := env.Out
	if path == "-" { // the export is the output: say so on the side
		confirm = env.Err
	}
	path, err = Export(a[0], path, name, msgs, time.Now(), env.Out, yes)
	if err != nil {
		return err
	}
	env.Lang.Fprintf(confirm, "Exported %d messages to %s (source: %s).\n", len(msgs), path, source)
	return nil
}

// Export writes msgs in format "md" or "jsonl" to path, or to stdout when
// path is "-". Where path points is exportTarget's to say: "" is
// chatcli-<name>-<YYYYMMDD-HHMMSS>.<ext> in the working directory, a
// leading "~" the home folder, a folder (or a path ending in "/") that
// default name inside it. A missing folder is created (0700). An existing
// file is replaced only with replace (--yes); otherwise the error wraps
// ErrUsage and names it, and a default name never replaces one (a "-N"
// suffix is added). Files are written durably with mode 0600. Errors name
// the file or folder (never a temporary file). It returns where it wrote.
func Export(format, path, name string, msgs []message.Message, now time.Time, stdout io.Writer, replace bool) (string, error) {
	var b strings.Builder
	var err error
	switch format {
	case "md", "markdown":
		format, err = "md", journal.ExportMarkdown(&b, name, msgs)
	case "jsonl":
		err = journal.ExportJSONL(&b, msgs)
	default:
		return "", i18n.Errorf("%w: unknown export format %q; use md or jsonl", ErrUsage, format)
	}
	if err != nil {
		return "", err
	}
	if path == "-" {
		_, err := io.WriteString(stdout, b.String())
		return "standard output", err
	}
	dir, file, err := exportTarget(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", i18n.Errorf("export: cannot create the folder %s: %w", dir, causeOf(err))
	}
	data := []byte(b.String())
	if file != "" {
		p := filepath.Join(dir, file)
		return p, writeExport(p, data, replace)
	}
	base := fmt.Sprintf("chatcli-%s-%s", name, now.Format("20060102-150405"))
	for i := 1; ; i++ {
		p := filepath.Join(dir, base+"."+format)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d.%s", base, i, format))
		}
		err := atomicfile.CreateFile(p, data)
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			abs, _ := filepath.Abs(p)
			return abs, exportError(p, err)
		}
	}
}

// warnSaid prints warnings, catalog texts, one line each on the error
// stream, said in env's language.
func warnSaid(env *Env, warnings []i18n.Text) {
	for _, w := range warnings {
		env.warn(TextIn(env.Lang, w))
	}
}
