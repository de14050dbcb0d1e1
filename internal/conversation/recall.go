package conversation

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chatcli/chatcli/internal/i18n"

	"github.com/chatcli/chatcli/internal/compact"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/message"
)

// Recall keys: a compaction's summary ends with a "Recall keys" section
// listing, for each user turn it removed from the live history, a line
//
//	- @recall r<first 10 hex digits of the prompt's journal hash>: "<start of the prompt>" (N messages)
//
// (the keys of earlier compactions are carried over, newest last, at most
// maxRecallKeys in all). `@recall KEY` brings that turn back verbatim from
// the journal (Recall) for as long as the journal exists.

// ErrNoRecall is wrapped by Recall's error for a key the journal does not
// hold (or no journal).
var ErrNoRecall = errors.New("conversation: no such recall key")

const (
	recallHeading = "## Recall keys"
	recallPrefix  = "- @recall "
	maxRecallKeys = 100
	recallKeyHex  = 10
)

// withRecallKeys returns res with its summary message (if any) ending with
// the recall keys of the user turns of before that res's history no
// longer holds.
func withRecallKeys(before []message.Message, beforeHashes []string, res compact.Result) compact.Result {
	s := slices.IndexFunc(res.History, func(m message.Message) bool { return m.Meta != nil && m.Meta.IsSummary })
	if s < 0 || len(beforeHashes) != len(before) {
		return res
	}
	kept := map[string]bool{}
	for _, h := range journal.HashHistory(res.History) {
		kept[h] = true
	}
	var lines []string
	for i := 0; i < len(before); i++ {
		m := before[i]
		if isSummaryMsg(m) {
			lines = append(lines, oldRecallLines(m.Content)...)
			continue
		}
		if kept[beforeHashes[i]] || m.Role != message.RoleUser {
			continue
		}
		n := 1
		for i+n < len(before) && before[i+n].Role != message.RoleUser && !kept[beforeHashes[i+n]] {
			n++
		}
		lines = append(lines, fmt.Sprintf("%sr%s: %q (%d messages)", recallPrefix, beforeHashes[i][:recallKeyHex],
			message.Clip(strings.Join(strings.Fields(m.Content), " "), 60), n))
	}
	if len(lines) == 0 {
		return res
	}
	if len(lines) > maxRecallKeys {
		lines = lines[len(lines)-maxRecallKeys:]
	}
	sum := res.History[s]
	body, _, _ := strings.Cut(sum.Content, "\n\n"+recallHeading)
	sum.Content = body + "\n\n" + recallHeading + " (`@recall KEY` in a prompt brings that turn back verbatim)\n" + strings.Join(lines, "\n")
	h := slices.Clone(res.History)
	h[s] = sum
	if compact.Size(h) >= compact.Size(before) { // compaction never grows the history
		return res
	}
	res.History = h
	return res
}

func isSummaryMsg(m message.Message) bool { return m.Meta != nil && m.Meta.IsSummary }

// oldRecallLines are the recall key lines of an earlier summary.
func oldRecallLines(content string) []string {
	_, keys, ok := strings.Cut(content, "\n\n"+recallHeading)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(keys, "\n") {
		if strings.HasPrefix(l, recallPrefix) {
			out = append(out, l)
		}
	}
	return out
}

// Recall returns the turn a recall key names (see withRecallKeys): the
// user message whose journal hash starts with the key's hex digits and the
// messages after it up to the next user message, read from the bound or
// live conversation's journal. Errors wrap ErrNoRecall, or are the
// journal's.
func (e *Engine) Recall(key string) ([]message.Message, error) {
	hex, ok := strings.CutPrefix(strings.TrimSpace(key), "r")
	if !ok || len(hex) < recallKeyHex {
		return nil, i18n.Errorf("%w: %q (keys look like r0123456789, listed by a compaction summary)", ErrNoRecall, key)
	}
	if e.journalDir == "" || !journal.ValidID(e.sess.TranscriptID) {
		return nil, i18n.Errorf("%w: %q: this conversation has no journal", ErrNoRecall, key)
	}
	msgs, hashes, _, err := journal.Messages(journal.Path(e.journalDir, e.sess.TranscriptID), e.store.Key())
	if err != nil {
		return nil, err
	}
	for i, h := range hashes {
		if strings.HasPrefix(h, hex) && msgs[i].Role == message.RoleUser {
			j := i + 1
			for j < len(msgs) && msgs[j].Role != message.RoleUser {
				j++
			}
			return msgs[i:j], nil
		}
	}
	return nil, i18n.Errorf("%w: %q is not in journal %s", ErrNoRecall, key, e.sess.TranscriptID)
}
