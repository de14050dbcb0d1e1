// Package bootstrap reads the bootstrap files, the instructions a person
// keeps beside their work so that every conversation starts from them:
// AGENTS.md, SOUL.md, USER.md, IDENTITY.md and RULES.md, in that order (the
// names and order ChatCLI uses). Each name is looked up in the working
// folder first, then in CHATCLI_HOME; the working folder's file wins and
// the other one is not read.
//
// Bootstrap files are not part of any session (ChatCLI's session page,
// "Bootstrap (SOUL.md, etc.)"): the engine sends them as one system message
// before the history of every request and never stores them in
// chat_history, so `session show` never prints them and a session moved to
// another folder meets that folder's files.
//
// A file is read again when its size or modification time changed since
// the last request, so an edit takes effect at the next prompt without a
// restart. Each file is cut at MaxFileBytes (on a character boundary) and
// the cut is said both in what is sent and in the listing. A name that is
// not a regular file (a folder, a device, a link to one) is skipped with a
// warning naming the path.
package bootstrap
