package main

import (
	"fmt"
	"path/filepath"

	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/retention"
	"github.com/chatcli/chatcli/internal/session"
)

// prunePreview is `storage prune` without --apply: the rules' plan and,
// with --empty-trash, the trashed sessions --apply would delete. Nothing
// changes.
func prunePreview(o *storagePruneOptions, c config.Config, plan retention.PrunePlan) error {
	var trash []session.TrashEntry
	if o.EmptyTrash {
		st, err := o.f.store(c)
		if err != nil {
			return err
		}
		if trash, err = st.TrashList(); err != nil {
			return err
		}
	}
	if o.JSON {
		if !o.EmptyTrash {
			return writeJSON(o.f, plan)
		}
		return writeJSON(o.f, trashPreview{PrunePlan: plan, TrashToEmpty: trashFiles(trash)})
	}
	out, lang := o.f.streams.Out, o.f.lang()
	again := "`chatcli storage prune --apply`"
	if o.EmptyTrash {
		again = "`chatcli storage prune --empty-trash --apply`"
	}
	if !o.Quiet || len(plan.Items) > 0 {
		command.WritePlanIn(lang, out, plan, again, o.f.tableWidth())
	}
	out, flush := command.WrapTo(out, o.f.tableWidth())
	defer flush()
	if o.EmptyTrash && len(trash) == 0 && !o.Quiet {
		lang.Fprintf(out, "The trash is empty.\n")
	}
	if o.EmptyTrash && len(trash) > 0 {
		var size int64
		for _, e := range trash {
			size += e.SizeBytes
		}
		lang.Fprintf(out, "Emptying the trash would delete %d trashed sessions (%s) for good; nothing was deleted: run %s.\n",
			len(trash), lang.Decimal(retention.FormatBytes(size)), again)
		for _, e := range trash {
			fmt.Fprintf(out, "  %s  (%s, %s)\n", e.Name, e.File, lang.Decimal(retention.FormatBytes(e.SizeBytes)))
		}
	}
	return nil
}

// trashPreview is `storage prune --empty-trash --json` without --apply.
type trashPreview struct {
	retention.PrunePlan
	// TrashToEmpty are the trashed files --apply would delete.
	TrashToEmpty []string `json:"trash_to_empty"`
}

func trashFiles(trash []session.TrashEntry) []string {
	out := []string{}
	for _, e := range trash {
		out = append(out, e.File)
	}
	return out
}

// emptyTrash deletes every trashed session and the journals no other
// session names (`storage prune --empty-trash --apply`), recording them in
// res and, unless --json, saying so.
func emptyTrash(o *storagePruneOptions, c config.Config, res *pruneOutput) error {
	st, err := o.f.store(c)
	if err != nil {
		return err
	}
	removed, applyErr := st.EmptyTrash(0)
	var ids []string
	for _, e := range removed {
		ids = append(ids, e.TranscriptID)
	}
	journalBytes := journalSizes(filepath.Join(c.Home, "transcripts"), ids)
	gone, err := retention.DropJournals(st, c.Home, ids) // gone for good: the journals too
	applyErr = joinErr(applyErr, err)
	var size, goneSize int64
	for _, e := range removed {
		res.TrashEmptied = append(res.TrashEmptied, e.File)
		size += e.SizeBytes
	}
	for _, id := range gone {
		res.JournalsDeleted = append(res.JournalsDeleted, id)
		goneSize += journalBytes[id]
	}
	out, flush := command.WrapTo(o.f.streams.Out, o.f.tableWidth())
	defer flush()
	lang := o.f.lang()
	if !o.JSON && (!o.Quiet || len(removed) > 0) {
		if len(gone) > 0 {
			lang.Fprintf(out, "Emptied the trash: %d trashed sessions deleted (%s), with %d journals no other session names (%s).\n",
				len(removed), lang.Decimal(retention.FormatBytes(size)), len(gone), lang.Decimal(retention.FormatBytes(goneSize)))
		} else {
			lang.Fprintf(out, "Emptied the trash: %d trashed sessions deleted (%s).\n", len(removed), lang.Decimal(retention.FormatBytes(size)))
		}
		if kept := len(journalBytes) - len(gone); kept > 0 {
			lang.Fprintf(out, "%d journals of those sessions kept: another session names them, or a session file cannot be read.\n", kept)
		}
	}
	return applyErr
}
