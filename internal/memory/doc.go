// Package memory is chatcli's global memory: short notes a person saves
// with `/memory save TEXT` (or `chatcli memory save TEXT`) that reach every
// request of every session and survive restarts. Memory belongs to no
// session (ChatCLI's session page, "Memória (/memory)"): it is never
// written into a session file.
//
// # On disk
//
// One file, CHATCLI_HOME/memory/notes.json (folder 0700, file 0600),
// replaced whole by every change through internal/atomicfile (temp file,
// fsync, rename, fsync of the folder), under the advisory lock
// CHATCLI_HOME/memory/.lock so that two processes saving at once both
// keep their note. Plaintext form:
//
//	{"version":1,"notes":[{"text":"…","saved_at":"2026-12-01T15:04:05Z"},…]}
//
// notes oldest first; a note's number (list, forget) is its 1-based place
// in that order. With CHATCLI_ENCRYPTION_KEY set the file is one seal
// envelope (internal/seal) of those bytes, sealed for the name "memory";
// a plaintext file is read and sealed at its next change. A file that
// cannot be read (damaged JSON, a version this build does not know, a
// sealed file without the key or with another key) is an error naming the
// file, and no change is written over it.
//
// # In requests
//
// Text renders the notes newest first, within a budget of bytes (Budget
// by default); when older notes do not fit, the text says how many were
// left out and that `/memory list` shows them.
package memory
