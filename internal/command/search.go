package command

import (
	"fmt"
	"os"
	"strings"

	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/search"
	"github.com/chatcli/chatcli/internal/session"
)

func sessionSearch(env *Env, a []string, _ bool) error {
	if len(a) == 0 {
		return fmt.Errorf("%w: /session search QUERY", ErrUsage)
	}
	hits, warnings, err := SearchAll(env.Engine.Store(), env.Engine.JournalDir(), strings.Join(a, " "), searchHits)
	for _, w := range warnings {
		fmt.Fprintln(env.Err, "warning: "+w)
	}
	if err != nil {
		return err
	}
	WriteHits(env.Out, hits, true)
	return nil
}

// SearchAll ranks the messages of every session (its whole journal when it
// has one, else its history) and of every journal no session names
// (source "journal:<id>"), and returns the best limit hits. Sessions that
// cannot be read are skipped and named in warnings. Nothing is written.
func SearchAll(st *session.Store, journalDir, query string, limit int) ([]search.Hit, []string, error) {
	list, err := st.List()
	if err != nil {
		return nil, nil, err
	}
	ix := search.NewIndex()
	var warnings []string
	named := map[string]bool{}
	for _, h := range list {
		if h.Err != nil {
			warnings = append(warnings, fmt.Sprintf("skipped session %q: %v", h.Name, h.Err))
			continue
		}
		s, err := st.Load(h.Name)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("skipped session %q: %v", h.Name, err))
			continue
		}
		named[s.TranscriptID] = true
		msgs, _, err := conversation.ReadTranscript(journalDir, s.TranscriptID, s.History)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("session %q: journal unreadable (%v); searched its history", h.Name, err))
			msgs = s.History
		}
		ix.Add(search.MessageDocs(h.Name, msgs)...)
	}
	if journalDir != "" {
		entries, _ := os.ReadDir(journalDir)
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".jsonl")
			if !ok || named[id] {
				continue
			}
			msgs, _, err := conversation.ReadTranscript(journalDir, id, nil)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("skipped journal %s: %v", id, err))
				continue
			}
			ix.Add(search.MessageDocs("journal:"+id, msgs)...)
		}
	}
	hits, err := ix.Search(query, limit)
	if err != nil {
		return nil, warnings, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return hits, warnings, nil
}
