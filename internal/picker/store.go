package picker

import (
	"context"

	"github.com/chatcli/chatcli/internal/message"
	"github.com/chatcli/chatcli/internal/recent"
	"github.com/chatcli/chatcli/internal/session"
)

// rowBatch is how many headers are read before a batch of rows is sent.
const rowBatch = 100

// StoreRows is a Source.Rows over st: the sessions' headers (Store.Stat,
// never a body), the most recently written files first, rowBatch at a
// time, each with the folder folders records for it. A file that cannot
// be read is listed with its error as its title.
func StoreRows(st *session.Store, folders map[string]recent.Entry) func(context.Context, func([]Row)) error {
	return func(ctx context.Context, send func([]Row)) error {
		names, err := st.Names()
		if err != nil {
			return err
		}
		for len(names) > 0 && ctx.Err() == nil {
			n := min(rowBatch, len(names))
			rows := make([]Row, 0, n)
			for _, name := range names[:n] {
				h, err := st.Stat(name)
				r := Row{Name: name, Title: h.Title, Messages: h.Messages, UpdatedAt: h.UpdatedAt, Folder: folders[name].Folder}
				if err != nil {
					r.Title = "(unreadable: " + message.ValidUTF8(err.Error()) + ")"
				}
				rows = append(rows, r)
			}
			send(rows)
			names = names[n:]
		}
		return nil
	}
}
