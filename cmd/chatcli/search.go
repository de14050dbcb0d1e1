package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/spf13/cobra"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/index"
	"github.com/chatcli/chatcli/internal/render"
	"github.com/chatcli/chatcli/internal/search"
)

// searchOptions are the flags of `chatcli session search`.
type searchOptions struct {
	f        *factory
	Query    string
	JSON     bool
	Limit    int
	Sessions []string
	Since    string
	Roles    []string
	Folder   string
}

// searchEntry is one element of `session search --json`.
type searchEntry struct {
	Session  string    `json:"session"`
	Deleted  bool      `json:"deleted,omitempty"`
	Forks    []string  `json:"forks,omitempty"`
	Journal  string    `json:"journal,omitempty"`
	Position int       `json:"position"`
	Role     string    `json:"role"`
	At       time.Time `json:"at,omitzero"`
	Score    float64   `json:"score"`
	Snippet  string    `json:"snippet"`
}

func newSessionSearchCmd(f *factory) *cobra.Command {
	o := &searchOptions{f: f}
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search every session and journal (BM25; ignores case and accents)",
		Long: "Search the messages of every session and journal through the index kept in\n" +
			"CHATCLI_HOME/index (built on the first search, with progress on a terminal, then\n" +
			"updated with what changed; sealed with CHATCLI_ENCRYPTION_KEY when it is set).\n" +
			"QUERY holds words, \"quoted phrases\" and -word or -\"phrase\" to leave out hits\n" +
			"holding them (quote the query, or put -word after --, so that it is not taken\n" +
			"for a flag). A message present in several forks is one hit naming the forks.\n" +
			"A journal no session names any more shows the last session that named it,\n" +
			"marked deleted.",
		Example: "  chatcli session search deploy freeze\n" +
			"  chatcli session search '\"deploy freeze\" -friday' --since 30d --role user\n" +
			"  chatcli session search migration --session api --json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("%w: %s needs a QUERY", errFlags, cmd.CommandPath())
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			o.Query = strings.Join(args, " ")
			return searchRun(o)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&o.JSON, "json", false, "print a JSON array of {session, deleted, forks, journal, position, role, at, score, snippet}")
	fl.IntVar(&o.Limit, "limit", 10, "show at most `N` hits (default 10)")
	quietDefault(fl.Lookup("limit"))
	fl.StringArrayVar(&o.Sessions, "session", nil, "only messages of session `NAME` (repeat for several)")
	fl.StringVar(&o.Since, "since", "", "only messages recorded since `WHEN`: a date (2006-01-02), an RFC 3339 time, or an age (90m, 36h, 7d)")
	fl.StringArrayVar(&o.Roles, "role", nil, "only messages of `ROLE`: user, assistant, system or tool (repeat for several)")
	fl.StringVar(&o.Folder, "folder", "", "only sessions last used in folder `DIR`")
	return cmd
}

// searchRun runs `chatcli session search`.
func searchRun(o *searchOptions) error {
	c, st, err := o.f.configStore()
	if err != nil {
		return err
	}
	filter, err := o.filter(c.Home, time.Now())
	if err != nil {
		return err
	}
	s := o.f.streams
	var progress func(done, total int64)
	if s.ErrTTY {
		progress = func(done, total int64) {
			o.f.lang().Fprintf(s.Err, "\rindexing sessions: %d%% (%d of %d MB)", done*100/max(total, 1), done>>20, total>>20)
			if done >= total {
				fmt.Fprint(s.Err, "\r\033[K")
			}
		}
	}
	hits, warnings, err := conversation.SearchStore(st, c.TranscriptsDir(), o.Query, filter, o.Limit, nil, progress)
	for _, w := range warnings {
		o.f.warn(command.TextIn(o.f.lang(), w))
	}
	if errors.Is(err, search.ErrEmptyQuery) {
		return fmt.Errorf("%w: %v", errFlags, err)
	}
	if err != nil {
		return err
	}
	if o.JSON {
		out := make([]searchEntry, 0, len(hits))
		for _, h := range hits {
			out = append(out, searchEntry{Session: h.Session, Deleted: h.Deleted, Forks: h.Members, Journal: h.Journal,
				Position: h.Position, Role: h.Role, At: h.At, Score: h.Score, Snippet: h.Snippet})
		}
		return writeJSON(o.f, out)
	}
	if len(hits) == 0 {
		o.f.lang().Fprintf(s.Out, "No matches.\n")
	}
	for _, h := range hits {
		fmt.Fprintf(s.Out, "%s #%d %s %s\n", render.VisibleLine(conversation.HitSourceIn(o.f.lang(), h)), h.Position, h.Role, render.VisibleLine(h.Snippet))
	}
	return nil
}

// filter turns the flags into an index.Filter.
func (o *searchOptions) filter(home string, now time.Time) (index.Filter, error) {
	f := index.Filter{Sessions: o.Sessions, Roles: o.Roles}
	for _, r := range o.Roles {
		if !slices.Contains([]string{"user", "assistant", "system", "tool"}, r) {
			return f, i18n.Errorf("%w: --role %q: use user, assistant, system or tool", errFlags, r)
		}
	}
	if o.Since != "" {
		t, err := parseSince(o.Since, now)
		if err != nil {
			return f, err
		}
		f.Since = t
	}
	if o.Folder != "" {
		dir, err := filepath.Abs(o.Folder)
		if err != nil {
			return f, fmt.Errorf("%w: --folder %q: %v", errFlags, o.Folder, err)
		}
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			dir = d
		}
		var in []string
		for name, folder := range recordedFolders(o.f.streams, o.f.lang(), home) {
			if folder == dir && (len(o.Sessions) == 0 || slices.Contains(o.Sessions, name)) {
				in = append(in, name)
			}
		}
		if len(in) == 0 {
			in = []string{"/"} // no session of that folder, and none is named "/": nothing matches
		}
		f.Sessions = in
	}
	return f, nil
}

// parseSince reads --since: a date, an RFC 3339 time, or an age before now
// (a Go duration, or whole days with "d").
func parseSince(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, v, time.Local); err == nil {
		return t, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		var n int
		if _, err := fmt.Sscanf(days, "%d", &n); err == nil && n >= 0 && fmt.Sprint(n) == days {
			return now.AddDate(0, 0, -n), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, i18n.Errorf("%w: --since %q: use a date (2006-01-02), an RFC 3339 time or an age (90m, 36h, 7d)", errFlags, v)
}
