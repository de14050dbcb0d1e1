package main

import (
	"fmt"

	"github.com/chatcli/chatcli/internal/i18n"
)

// listProgress is the progress line of a listing that reads sessions
// whole (session.Store.SetListProgress: files written by an earlier
// build or another program, read once), shown on stderr when it is a
// terminal, in lang's language (numbers as fmt prints them in English,
// grouped in Portuguese):
//
//	checking 2000 sessions once (written by an earlier version)… 340/2000
//
// It is cleared when the reads are over, before the listing is printed.
// Off a terminal it is nil: nothing is shown, and scripts read stderr as
// before.
func listProgress(s *ioStreams, lang *i18n.Printer) func(done, total int) {
	if !s.ErrTTY {
		return nil
	}
	return func(done, total int) {
		if done >= total {
			fmt.Fprint(s.Err, "\r\033[K")
			return
		}
		fmt.Fprint(s.Err, "\r"+lang.Sprintf("checking %d sessions once (written by an earlier version)… %d/%d", total, done, total)+"\033[K")
	}
}
