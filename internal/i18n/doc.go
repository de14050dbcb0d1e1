// Package i18n holds chatcli's message catalogs, English and Brazilian
// Portuguese, and picks the language of a process.
//
// A message's key is its English format string (fmt verbs); catalog.go
// gives its Portuguese text, which may reorder the arguments with explicit
// indexes (%[2]s). The Portuguese messages of ChatCLI's documentation are
// kept word for word ("Sessão 'x' salva com sucesso."). A test fails when
// a message printed through a Printer has no Portuguese text, or a
// catalog entry has no English one.
//
// The language is CHATCLI_LANG (ChatCLI's variable: pt-BR, en), else
// the locale of LC_ALL, LC_MESSAGES or LANG (pt_BR.UTF-8), else English.
// Any Portuguese locale selects pt-BR; every other language, English.
package i18n
