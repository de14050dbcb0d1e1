package command

import (
	"strconv"

	"github.com/chatcli/chatcli/internal/i18n"
)

// Page is the window [From, To) of a list of n items that a cursor and a
// limit ask for, and the cursor of the next page ("" on the last). A
// cursor is the decimal offset of the page's first item, as the MCP and
// ACP list answers give it; "" is the first page.
type Page struct {
	From, To int
	Next     string
}

// PageOf computes the page of n items at cursor holding at most limit of
// them. Errors: an ErrUsage error naming a cursor that is not a decimal
// offset within the list (not one a previous page gave), or a limit below 1.
func PageOf(n int, cursor string, limit int) (Page, error) {
	if limit < 1 {
		return Page{}, i18n.Errorf("%w: limit %d: want at least 1", ErrUsage, limit)
	}
	from := 0
	if cursor != "" {
		var err error
		if from, err = strconv.Atoi(cursor); err != nil || from < 0 || from > n {
			return Page{}, i18n.Errorf("%w: cursor %q is not one this server gave (it is the offset of the next page, 0 to %d)", ErrUsage, cursor, n)
		}
	}
	p := Page{From: from, To: min(n, from+limit)}
	if p.To < n {
		p.Next = strconv.Itoa(p.To)
	}
	return p, nil
}
