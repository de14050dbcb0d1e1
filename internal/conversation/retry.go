package conversation

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/chatcli/chatcli/internal/provider"
)

// SetOnRetried sets the receiver told of each retry the provider makes of
// a request, after the retry's notice and before its wait (a surface
// shows the spinner again, which the notice's line stopped), and returns
// the previous one; nil tells no one.
func (e *Engine) SetOnRetried(fn func()) (previous func()) {
	previous, e.onRetried = e.onRetried, fn
	return previous
}

// retrying returns ctx with the engine as the hearer of the provider's
// retries: each is said as a notice, with the status (or why the server
// could not be reached), the wait and the attempt, and OnRetried is told.
func (e *Engine) retrying(ctx context.Context) context.Context {
	return provider.WithOnRetry(ctx, func(r provider.Retry) {
		wait := e.lang.Decimal(fmt.Sprintf("%.1f", r.Delay.Seconds()))
		if r.Status != 0 {
			e.notifyf("HTTP %d from %s; retrying in %s s (attempt %d of %d)…", r.Status, r.Provider, wait, r.Attempt, r.Attempts)
		} else {
			err := r.Err
			var ue *url.Error
			if errors.As(err, &ue) { // the request's URL is the base URL's: the cause alone
				err = ue.Err
			}
			e.notifyf("%s could not be reached (%v); retrying in %s s (attempt %d of %d)…", r.Provider, err, wait, r.Attempt, r.Attempts)
		}
		if e.onRetried != nil {
			e.onRetried()
		}
	})
}
