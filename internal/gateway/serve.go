package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/chatcli/chatcli/internal/i18n"
)

// shutdownWait is how long a stopping endpoint waits for the requests in
// flight.
const shutdownWait = 5 * time.Second

// ServeHTTP listens on addr and serves h at path until ctx ends; then it
// shuts the server down, waiting at most 5 seconds for requests in
// flight, and calls drain (which waits for the work they started). what
// names the endpoint in the notice sent to log at start (in lang; nil:
// English) and in errors. Errors: the listener's (the address is taken,
// or not host:port).
func ServeHTTP(ctx context.Context, what, addr, path string, h http.Handler, drain func(), log func(string), lang *i18n.Printer) error {
	mux := http.NewServeMux()
	mux.Handle(path, h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	log(lang.Sprintf("%s on http://%s%s", what, l.Addr(), path))
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownWait)
		defer cancel()
		srv.Shutdown(shut)
	}()
	err = srv.Serve(l)
	drain()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
