package command

import (
	"context"
	"errors"
	"sort"
	"strings"
	"syscall"

	"github.com/chatcli/chatcli/internal/config"
	"github.com/chatcli/chatcli/internal/contexts"
	"github.com/chatcli/chatcli/internal/conversation"
	"github.com/chatcli/chatcli/internal/i18n"
	"github.com/chatcli/chatcli/internal/journal"
	"github.com/chatcli/chatcli/internal/memory"
	"github.com/chatcli/chatcli/internal/provider"
	"github.com/chatcli/chatcli/internal/seal"
	"github.com/chatcli/chatcli/internal/session"
	"github.com/chatcli/chatcli/internal/storefile"
)

// errorKinds are the kinds of error an error line names in the reader's
// language, longest text first, so a kind that extends another
// (config.ErrUnsupportedProvider) is named before it. Each has a line in
// the i18n catalog (i18n.KindTexts).
var errorKinds = byLength([]error{
	session.ErrNotFound, session.ErrExists, session.ErrCorrupt, session.ErrTooNew, session.ErrConflict,
	session.ErrLocked, session.ErrInvalidName, session.ErrKeyRefused, session.ErrEncrypted, journal.ErrEncrypted,
	session.ErrStoreEncrypted, conversation.ErrReservedName, storefile.ErrNotRegular,
	seal.ErrWrongKey, seal.ErrCorrupt, seal.ErrTooNew, seal.ErrBadKey,
	journal.ErrLocked, journal.ErrCorrupt, conversation.ErrNoCheckpoint, conversation.ErrNoCodeCheckpoint,
	conversation.ErrNoMessage, conversation.ErrNotBound, conversation.ErrNoRecall, conversation.ErrStepLimit,
	conversation.ErrNoToolbox,
	contexts.ErrNotFound, contexts.ErrExists, contexts.ErrUnreadable, contexts.ErrTooLarge,
	memory.ErrUnreadable, memory.ErrNoNote,
	config.ErrUnsupportedProvider, config.ErrConfigFile, config.ErrConfig,
	syscall.EACCES, syscall.EPERM, syscall.ENOSPC, syscall.EROFS, context.DeadlineExceeded,
})

func byLength(errs []error) []error {
	sort.SliceStable(errs, func(i, j int) bool { return len(errs[i].Error()) > len(errs[j].Error()) })
	return errs
}

// ErrorLineIn is ErrorLine in lang's language. An error of the i18n
// catalog (i18n.Errorf) is said by its message in lang, and so is each
// error it wraps; in the text of any other error, each kind of error it
// wraps (errorKinds, then more: kinds of the packages this one cannot
// name) is replaced by its line in lang. The rest (the names, paths and a
// server's words the error carries) is kept as it is. The name rules
// (session.NameRule) said with a refused name are said in lang too.
// A nil lang is English, as ErrorLine.
func ErrorLineIn(lang *i18n.Printer, err error, more ...error) string {
	if lang.Tag() == i18n.English {
		return ErrorLine(err)
	}
	kinds := append(byLength(more), errorKinds...)
	return errorLine(err, lang.Error(err, func(e error) string { return kindsIn(lang, e, kinds) }))
}

// TextIn is t in lang's language (its English text in English), each
// error among its arguments said as ErrorLineIn says it: a catalog error
// by its message, the kinds of any other error by their lines.
func TextIn(lang *i18n.Printer, t i18n.Text) string {
	return lang.TextWith(t, func(e error) string { return kindsIn(lang, e, errorKinds) })
}

// kindsIn is the text of err with the text of each of kinds it wraps, of
// a provider failure's hint and chatcli's own detail (provider.Error's
// Cause) and of the name rules replaced by its line in lang.
func kindsIn(lang *i18n.Printer, err error, kinds []error) string {
	line := err.Error()
	var pe *provider.Error
	if errors.As(err, &pe) {
		hint := strings.TrimPrefix((&provider.Error{Kind: pe.Kind}).Error(), ": ")
		line = strings.Replace(line, pe.Provider+": "+hint, pe.Provider+": "+lang.Kind(hint), 1)
		if pe.Cause != nil && pe.Detail != "" {
			line = strings.Replace(line, ": "+pe.Detail, ": "+lang.Error(pe.Cause, nil), 1)
		}
	}
	for _, k := range kinds {
		if errors.Is(err, k) {
			line = strings.ReplaceAll(line, k.Error(), lang.Kind(k.Error()))
		}
	}
	if errors.Is(err, session.ErrInvalidName) || line == session.NameRule {
		line = strings.ReplaceAll(line, session.NameRule, lang.Kind(session.NameRule))
	}
	return line
}
