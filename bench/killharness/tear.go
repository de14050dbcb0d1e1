package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
)

// tear simulates, after a kill during a turn on session name, what a kill
// landing inside the journal's write(2) leaves: the file cut inside its
// last line. It does so only when that is what such a kill could have
// left: the store is plaintext, the last line is the record of a prompt
// of this operation that was not acknowledged (so its reply was never
// printed), and the session's file does not cover it (a snapshot is
// written after its records are). It reports whether it cut the file.
func (h *harness) tear(name string, sent, acked []string) bool {
	if h.key != "" || h.cfg.tear <= 0 || h.rng.Float64() >= h.cfg.tear {
		return false
	}
	raw, err := os.ReadFile(filepath.Join(h.home, "sessions", name+".json"))
	if err != nil {
		return false
	}
	var head struct {
		TranscriptID string `json:"transcript_id"`
		JournalPos   struct {
			Seq int64 `json:"seq"`
		} `json:"journal_pos"`
	}
	if json.Unmarshal(raw, &head) != nil || head.TranscriptID == "" || filepath.Base(head.TranscriptID) != head.TranscriptID {
		return false
	}
	path := filepath.Join(h.home, "transcripts", head.TranscriptID+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 2 || data[len(data)-1] != '\n' {
		return false
	}
	// The batch of a prompt is its message record, then the checkpoints
	// record: a kill inside its write leaves a prefix of those lines.
	type record struct {
		Type    string  `json:"type"`
		Seq     int64   `json:"seq"`
		Message message `json:"message"`
	}
	lastStart := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	batch := lastStart
	var last record
	if json.Unmarshal(data[lastStart:len(data)-1], &last) != nil {
		return false
	}
	if last.Type == "checkpoints" && lastStart > 0 {
		batch = bytes.LastIndexByte(data[:lastStart-1], '\n') + 1
	}
	var rec record
	if json.Unmarshal(data[batch:max(batch, lastStart-1)], &rec) != nil && batch != lastStart {
		return false
	}
	if batch == lastStart {
		rec = last
	}
	if rec.Type != "message" || rec.Message.Role != "user" || rec.Seq <= head.JournalPos.Seq {
		return false
	}
	tok := tokenOf(rec.Message.Content)
	if !slices.Contains(sent, tok) || slices.Contains(acked, tok) || len(data)-batch < 3 {
		return false
	}
	// Cut after at least one byte of the batch, before its final "\n".
	cut := int64(batch + 1 + h.rng.IntN(len(data)-batch-2))
	if os.Truncate(path, cut) != nil {
		return false
	}
	h.notes["simulated torn appends (a journal cut inside its unacknowledged last line)"]++
	return true
}
