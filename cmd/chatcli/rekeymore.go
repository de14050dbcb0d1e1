package main

import (
	"os"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/editor"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/shadow"
)

// rekeyBeyondSessions lists what else the key seals, after the sessions
// and journals: every file-checkpoint repository (shadow.Rekey) and the
// input history when there is one (editor.RekeyHistory; left alone when
// CHATCLI_HISTORY_PLAINTEXT keeps it plaintext), then the contexts and the
// memory notes (contextRekeyTargets).
func rekeyBeyondSessions(c config.Config, old seal.Key) ([]rekeyTarget, error) {
	repos, err := shadow.List(c.Home)
	if err != nil {
		return nil, err
	}
	var out []rekeyTarget
	for _, in := range repos {
		dir := in.Dir
		out = append(out, rekeyTarget{dir, func() (bool, []journal.Warning, error) {
			return noDamage(shadow.Rekey(dir, old, c.EncryptionKey))
		}})
	}
	if _, err := os.Stat(c.HistoryFile); err == nil && !c.HistoryPlaintext {
		out = append(out, rekeyTarget{c.HistoryFile, func() (bool, []journal.Warning, error) {
			return noDamage(editor.RekeyHistory(c.HistoryFile, old, c.EncryptionKey))
		}})
	}
	ctxs, err := contextRekeyTargets(c, old)
	if err != nil {
		return nil, err
	}
	return append(out, ctxs...), nil
}
