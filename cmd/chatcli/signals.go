package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"
)

// signalGrace is how long a command has, after SIGTERM or SIGHUP, to
// return through its cancelled context (the REPL saves the conversation
// then) before the process ends anyway: whatever a command waits on (a
// lock held elsewhere, a read that takes no context), a signal stops it
// within 2 s.
const signalGrace = 1500 * time.Millisecond

// exitAfterSignal ends the process with exitSignal grace after ctx is
// done, saying so on s.Err, unless main has exited first. ctx is main's
// signal context: done when a signal arrives, or when main stops it on the
// way out (main then exits long before grace).
func exitAfterSignal(ctx context.Context, grace time.Duration, s *ioStreams) {
	go func() {
		<-ctx.Done()
		time.Sleep(grace)
		fmt.Fprintf(s.Err, "chatcli: stopped by a signal after waiting %v for the command to finish\n", grace)
		os.Exit(exitSignal)
	}()
}

// interruptible returns ctx ended also by the first Ctrl+C (SIGINT), for
// a one-shot turn: it then stops as the REPL's turn does (its prompt
// marked unanswered in the session, the session written, exit status
// exitSignal) rather than the process dying mid-turn with the prompt
// recorded as if it were waiting for a reply. A second Ctrl+C kills the
// process as usual. stop releases the signal.
func interruptible(ctx context.Context) (context.Context, func()) {
	ictx, stop := signal.NotifyContext(ctx, os.Interrupt)
	go func() {
		<-ictx.Done()
		stop()
	}()
	return ictx, stop
}
