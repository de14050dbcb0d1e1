// Package i18n holds chatcli's message catalogs, English and Brazilian
// Portuguese, and picks the language of a process.
//
// A message's key is its English format string (fmt verbs); catalog.go,
// notices.go, verbs.go and help.go give its Portuguese text, which may
// reorder the arguments with explicit indexes (%[2]s). The Portuguese
// messages of ChatCLI's documentation are kept word for word ("Sessão 'x'
// salva com sucesso."). English is formatted by package fmt, so it reads
// exactly as the key formatted, but for a message that counts something:
// the key counts in the plural, and the words that change with a count
// are choices ({message|messages}) that CLDR's rules pick from in each
// language, through golang.org/x/text (plural.go, counts.go); no text
// says "file(s)". Portuguese groups digits ("4.004"), except
// from a Plain Printer, used for text inside -p --json and --stream-json,
// whose keys and numbers never change with the language.
//
// Errors: Errorf is fmt.Errorf for a message of errtexts.go. Its Error is
// the English text and it wraps what %w wraps; Printer.Error says it, and
// each catalog error it wraps, in Portuguese, leaving the error kinds of
// other errors to the caller (kinds.go, command.ErrorLineIn). Names,
// paths, flags and a server's words are never translated.
//
// Tests fail when a message printed through a Printer, an Errorf or a
// Textf has no Portuguese text, when a catalog entry is printed nowhere or
// lacks one language, when a Portuguese error drops one of its arguments,
// and when a command or REPL error is an fmt.Errorf worded in English only.
//
// The language is CHATCLI_LANG (ChatCLI's variable: pt-BR, en), else
// the locale of LC_ALL, LC_MESSAGES or LANG (pt_BR.UTF-8), else English.
// Any Portuguese locale selects pt-BR; every other language, English.
package i18n
