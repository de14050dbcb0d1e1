// Command chatcli is a terminal AI chat client whose conversations are kept
// as durable, named sessions. See README.md and `chatcli --help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/chatcli/chatcli/internal/atomicfile"
	"github.com/chatcli/chatcli/internal/command"
	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/memory"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/repl"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// Exit codes, one per class of failure.
const (
	exitOK       = 0
	exitError    = 1   // anything not listed below
	exitUsage    = 2   // bad flags, arguments or names; a name already taken; no such checkpoint or message
	exitNotFound = 3   // no such session
	exitData     = 4   // a file that cannot be read, is too new, encrypted without a key, or the key is wrong
	exitProvider = 5   // the LLM request failed
	exitDamaged  = 6   // storage verify found damage it did not repair
	exitSignal   = 130 // stopped by a signal
)

func main() {
	streams := systemStreams()
	// SIGTERM and SIGHUP (terminal closed) end the REPL through its context,
	// so the conversation is saved before the process exits.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	exitAfterSignal(ctx, signalGrace, streams)
	f := &factory{streams: streams, getenv: dotenvGetenv(streams)}
	f.lang() // chosen here, before any goroutine notes something in it
	printWarnings(f)
	cmd := newRootCmd(f, nil)
	err := cmd.ExecuteContext(ctx)
	f.close()
	stop()
	os.Exit(exitCode(streams, f.lang(), err, f.errWidth()))
}

// dotenvGetenv is the environment chatcli reads: the process's, and for
// what it does not set ChatCLI's dotenv file (config.Dotenv: CHATCLI_DOTENV,
// or .env in the working folder). A file that cannot be read is said, in
// the language the process's environment chooses, and ignored.
func dotenvGetenv(s *ioStreams) func(string) string {
	wd, _ := os.Getwd()
	getenv, _, err := config.Dotenv(os.LookupEnv, wd)
	if err != nil {
		lang := i18n.FromEnv(os.Getenv)
		lang.Fprintf(s.Err, "warning: %s\n", lang.Error(err, nil))
	}
	return getenv
}

// printWarnings prints each warning of the file layer (atomicfile: fsync
// not supported where the store lives) once per process on the error
// stream, "warning: <line>" ("aviso: " in Portuguese), when it is met,
// whatever the surface.
func printWarnings(f *factory) {
	atomicfile.SetWarnFunc(f.warn)
}

// exitCode prints err in lang, wrapped to width (0: as it is), and maps
// it to the process exit status, which is the same in every language.
func exitCode(s *ioStreams, lang *i18n.Printer, err error, width int) int {
	if err == nil {
		return exitOK
	}
	io.WriteString(s.Err, command.WrapText(fmt.Sprintf("chatcli: %s\n", command.ErrorLineIn(lang, err, repl.ErrScriptFailed)), width))
	return errorClass(err)
}

// errorClass maps err to its exit status: the one table of error classes
// (exitOK for nil). Script mode uses it too, to keep the class of its
// failed lines.
func errorClass(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		return exitSignal
	case errors.Is(err, errDamaged):
		return exitDamaged
	case errors.Is(err, command.ErrUsage), errors.Is(err, session.ErrInvalidName), errors.Is(err, config.ErrConfig),
		errors.Is(err, conversation.ErrReservedName), errors.Is(err, session.ErrExists), errors.Is(err, conversation.ErrNoCheckpoint),
		errors.Is(err, conversation.ErrNoMessage), errors.Is(err, contexts.ErrExists), errors.Is(err, contexts.ErrTooLarge),
		errors.Is(err, memory.ErrNoNote), errors.Is(err, conversation.ErrNoRecall):
		return exitUsage
	case errors.Is(err, session.ErrNotFound), errors.Is(err, contexts.ErrNotFound):
		return exitNotFound
	case errors.Is(err, session.ErrCorrupt), errors.Is(err, session.ErrTooNew), errors.Is(err, session.ErrEncrypted),
		errors.Is(err, journal.ErrEncrypted), errors.Is(err, seal.ErrWrongKey), errors.Is(err, seal.ErrCorrupt), errors.Is(err, seal.ErrTooNew),
		errors.Is(err, session.ErrKeyRefused), errors.Is(err, session.ErrStoreEncrypted), errors.Is(err, storefile.ErrNotRegular),
		errors.Is(err, contexts.ErrUnreadable), errors.Is(err, memory.ErrUnreadable):
		return exitData
	case errors.Is(err, provider.ErrProvider):
		return exitProvider
	}
	return exitError
}
