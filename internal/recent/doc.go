// Package recent records the working folder each session was last used
// in, so that `chatcli -c` can continue the newest conversation of a
// folder and listings can filter by folder, without reading any session
// body.
//
// The record is one file, $CHATCLI_HOME/recent.json (mode 0600), written
// whole (atomicfile.WriteFile) under the lock file $CHATCLI_HOME/.recent.lock
// (flock(2)) so processes never lose each other's entries:
//
//	{"version":1,"sessions":{"<name>":{"folder":"/abs/dir","used_at":"RFC 3339"}}}
//
// One entry per session name: the folder (absolute, symbolic links
// resolved) and the time the session was last bound, resumed or autosaved
// there. Entries of sessions that no longer exist are harmless (readers
// check the store) and are dropped once the record passes MaxEntries, the
// least recently used first. Folder paths are kept in plaintext, like
// session file names, whether or not the store is encrypted. A record that
// cannot be parsed is moved aside to recent.json.broken (never deleted) by
// the next write, which starts a new one.
package recent
