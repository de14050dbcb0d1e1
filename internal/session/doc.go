// Package session is the store of named conversations: one file per session
// under $CHATCLI_HOME/sessions, written durably and read tolerantly. It knows
// nothing of LLMs or terminals.
//
// # Names
//
// NormalizeName is the single gate: letters and digits of any script (with
// their combining marks), '.', '_' and '-'; first character a letter or
// digit; 1-128 characters after Unicode NFC and at most MaxNameBytes (214)
// bytes of UTF-8, so that every file chatcli names after a session fits the
// file system's 255-byte limit; no "..", no trailing '.', no
// path separator, space or control character, no Windows device name (CON,
// NUL, COM1, …, with or without extension). Store.path maps a valid name to
// sessions/<name>.json and every verb uses it, so no name can reach a file
// outside the folder. Store.Name also lets through, as they are, the
// names of existing files that follow ChatCLI's rule instead
// (^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$: con, nul.txt, a..b, release-v2.),
// so sessions ChatCLI created open, save, rename and delete; new names
// still follow NormalizeName. A file whose name is the NFD spelling of a
// valid name (synced from macOS) is used when no NFC file exists.
// LookAlike names the names that print like others (mixed-script,
// fullwidth), for listings to mark.
//
// Every file of the store is opened through package storefile: never
// through a symbolic link, never blocking on a FIFO, and only once fstat
// says it is a regular file. An entry of sessions/ named *.json that is
// not a regular file is listed with an Err wrapping
// storefile.ErrNotRegular and never opened; a trash/ that is a link is an
// error, never listed or emptied through.
//
// # File format (v2)
//
// A session file is one UTF-8 JSON object, compatible with ChatCLI's format
// v2 (which ignores members it does not know). chatcli writes the members in
// this order, header first, one member per line and one message per line:
//
//	{"version":2,
//	"title":"first user message, 60 characters…",
//	"created_at":"2026-11-30T08:00:00.123Z",      RFC 3339, UTC
//	"updated_at":"2026-11-30T08:05:00.456Z",      set by every save
//	"revision":7,                                 incremented by every save
//	"message_count":12,                           len(chat_history)
//	"transcript_id":"…",                          only when a journal exists
//	"journal_pos":{…},                            see "The journal tail"
//	"lineage":{…},                                only for a session made from another, see "Lineage"
//	"chat_history":[
//	{"role":"user","content":"…"},
//	{"role":"assistant","content":"…","tool_calls":[…]}
//	],
//	"checkpoints":[…],                            only when present, verbatim
//	"attachments":[…],                            only when present, verbatim (/context attach records, internal/contexts)
//	"<unknown member>":…,                         kept verbatim, in key order
//	"agent_history":[],
//	"coder_history":[],
//	"shared_memory":[]}
//
// Messages are encoded as package message documents. Reading accepts the
// members in any order (files written before this layout have the
// checkpoints and unknown members before chat_history, and chat_history
// last).
//
// # The header and listing
//
// The members before chat_history are the header: a few hundred bytes,
// whatever the length of the history, the checkpoints or the attachments.
// List and Stat read each file through a 4 KiB buffer and stop at
// "chat_history" once they have seen message_count and title, so listing
// costs one small read per file whatever the size of the conversation; they
// also check that the file ends as chatcli's files do
// (`\n"shared_memory":[]}`, or `\n]}` for files written before this
// layout), and a file that does not (cut short, or with another last
// member) is read whole, so a cut file is listed as unreadable.
// List and Stat trust that one read only for a file this store wrote or
// checked and nothing changed since: each plaintext write of the store
// (save, create, decrypt, a copy to the trash) and each of its moves
// (rename, trash, restore) sets the extended attribute
// user.chatcli.written on the file to its size, its mtime and its ctime
// just before the attribute is set ("<bytes> <mtime ns> <ctime ns>",
// written.go). A mark is trusted while it matches the file's size and
// mtime and the file's ctime lies within 1 s after the one recorded, so
// an edit in place that restores size and mtime is seen too; marks of
// earlier builds, without the ctime, are trusted by size and mtime. A
// file whose attribute no longer matches its fstat (edited, copied, put
// in its place, written by an earlier build, or on a file system without
// user attributes) is read whole like a file of another program, so that
// List, Stat and Load agree on every message. When that whole read finds
// the file sound and its header saying what the whole document says, the
// attribute is set then, so an earlier build's file is read whole once.
// Files written by other programs (no message_count before chat_history,
// as ChatCLI writes them) are read whole, once, through a 256 KiB buffer:
// a byte scan (jsonscan.Stream) checks the document's structure and counts
// the messages without decoding them, so its memory does not depend on the
// file's size. It decodes only the header members (each at most 64 KiB of
// JSON) and, until one gives a title, the role, meta.is_summary and the
// first 64 KiB of the content of each message. Messages are what Load
// returns: chat_history, plus agent_history and coder_history in a v1
// file (their non-system messages in a v2 file), or the elements of a
// bare array; a file without a title is listed
// with the one DeriveTitle gives the loaded history. A cut or malformed
// file is listed as unreadable; the contents of strings and of the
// messages not decoded are checked by Load only.
//
// The headers of plaintext files, in either layout, and the verdicts on
// files Load refuses as corrupt, are kept in a derived index,
// cache/session-list.json beside the sessions folder (never in it, where
// ChatCLI would list it as a session), as read from the file before its
// journal's tail. It is a JSON object: file name -> {rules, size,
// mtime_ns, ino, ctime_ns, listed_ns, title, messages, created_at,
// updated_at, revision, transcript_id, journal_pos, version, corrupt,
// marked}. An
// entry answers for a file whose lstat (from the directory read, the file
// not opened) gives the same size, mtime and, on Linux, inode and ctime,
// which no rewrite keeps, unless the file's last change lies within 2 s of
// listed_ns, when the entry was made (such a "racy" entry is read again,
// as git does; marked says the listing set the file's mark after reading
// it whole, so the ctime is the mark's and only the mtime counts here): so
// listing an unchanged store opens no session file. Only
// a file the index does not answer for is read as above, its header block
// alone only when its user.chatcli.written mark matches. Stat asks the
// same entry, by the same rules, before reading a file whole that carries
// no mark (a file system without user attributes), so it too costs the
// header block whatever the history's length. rules is the
// version of the rules the verdict was reached by (listIndexRules): an
// entry of other rules, an earlier build's, is read again. corrupt is the
// error of a file Load refuses as unreadable, so it is not read at every
// listing either. The journal tails are counted in for every header,
// indexed or read: a stat of each journal (the journal itself, not what a
// link there names), and its records after journal_pos when it grew. The
// index may be deleted at any time. It never keeps the header of a sealed
// file, which would leave its title in plaintext: sealing a file (a save
// with a key, RekeyFile) removes its entry. Store.Unchanged tells a caller
// holding a header whether the file is still the one it was read from
// (same size and mtime). Files without updated_at sort by mtime.
//
// # Older and newer versions
//
// v1 files are read: a bare message array, or an object with separate
// chat_history, agent_history and coder_history arrays, merged in that
// order into the unified history with meta.mode set to agent or coder. They
// are written as v2 at the next save. v2 files of ChatCLI 1.66 may hold
// messages in agent_history and coder_history too: their non-system
// messages are merged the same way after chat_history, as ChatCLI 1.188.0
// merges them (ModesMerge), and the arrays are written back empty. A file whose version is higher than
// FormatVersion is refused (ErrTooNew, naming both versions) and never
// rewritten.
//
// # Durability
//
// Every write goes to a hidden temporary file in the same folder
// (".<name>.json.tmp-*"), is length-checked, fsynced, closed, renamed over
// the target (or published without replacing, for Create, so an existing
// session is never replaced) and the folder is fsynced (package
// atomicfile). On an error before the rename the temporary file is removed
// and the old file is byte-identical. Save refuses to replace a file that
// cannot be read (ErrCorrupt) or is too new (ErrTooNew): evidence is never
// destroyed. Files are created 0600 and the folder 0700.
//
// Rename, Trash and Restore move files with atomicfile.Move (renameat2
// RENAME_NOREPLACE, or link → fsync of the new folder → unlink → fsync of
// the old one; never over an existing file); a sealed session's rename
// re-seals it on the way (atomicfile.MoveWith); Delete is atomicfile.Remove.
//
// A write or move that landed but whose folder fsync failed returns an
// error wrapping atomicfile.ErrNotDurable (and the cause), and is a write:
// the file holds the new content, Save and SaveIf have updated the
// session's revision, CreateUnique returns the name it used, Trash the
// entry, RekeyFile changed true, ImportLegacy the session, and a moved
// session's lock file is removed as after any move. Callers treat it as
// written and may warn that a crash could undo it. fsync answering EINVAL
// or ENOTSUP counts as done (atomicfile.Warnings).
//
// # Locks and revisions
//
// Every write of a session (Save, SaveIf, Create) holds an exclusive
// flock(2) on its lock file, locks/<name>.lock beside the sessions folder
// (empty, mode 0600; LocksDirName), so writers in any number of processes
// are serialised. Nothing of chatcli's stays in sessions/ but session files
// (and a write's temp file while it lands): ChatCLI lists that folder.
//
// Upgrade rule: builds before the locks folder lock sessions/.<name>.lock
// instead. So that the two exclude each other while both run on a store,
// a write of this build also takes that file (creating it) after its own
// lock, and removes it, still holding it, before releasing it: an older
// build that waited on it finds its locked file gone from the path (it
// checks, as this build does) and locks a new one, which this build's next
// writer waits for. Such files therefore exist only while a write holds
// them; those an older build left are removed by the next write of the
// session, or by `storage prune --apply` (package retention) while no
// process holds them.
// A write waits for the lock with a growing back-off (0.2-5 ms) up to the
// store's lock timeout (DefaultLockTimeout, SetLockTimeout) and then fails
// with ErrLocked naming the session and the lock file; the lock is released
// when its process exits, so a crash never leaves it held. Delete, Trash
// and Rename hold the lock too (Rename the locks of both names, taken in
// sorted order): a write that returned before the move is in the moved
// file, and one that comes after finds no file, so SaveIf fails with a
// Missing conflict and Save creates the old name again; no write that
// returned success is lost. They remove the lock file before releasing it;
// a writer that then locks the removed file notices (it is no longer the
// file at the path) and locks the new one. Restore holds the lock of the
// name it brings back: a write under way finishes first (and Restore then
// refuses, ErrExists, the trashed copy kept), one that comes after finds
// the restored file.
//
// The revision member counts saves. Save (last writer wins) writes one more
// than the higher of the session's and the stored revision, so every write
// changes it. SaveIf(name, sess, expect) writes only when the stored
// revision, read under the lock, is expect (0 for no file): otherwise it
// returns a *ConflictError (ErrConflict) with the current revision and
// writes nothing. A reader that compares revisions therefore never misses a
// write by chatcli, whatever the clock's resolution; updated_at is
// informative (recency in listings).
//
// # Encryption at rest
//
// With a key (Store.SetKey; CHATCLI_ENCRYPTION_KEY) every session file
// written is a sealed container instead of JSON. The header envelope is
// package seal's version 1 (AES-256-GCM under a per-envelope HKDF key; 69
// bytes of overhead); the body is seal's version-2 stream (STREAM over
// AES-256-GCM in 64 KiB segments; 48 bytes of header and 16 per segment).
// Offsets in bytes, big-endian, L = length of the header envelope:
//
//	offset   size  field
//	0        8     magic: 0x89 'C' 'S' 'S' 0x0D 0x0A 0x1A 0x0A  ("\x89CSS\r\n\x1a\n")
//	8        1     container version: 0x02
//	9        4     L, uint32; 69 <= L <= 1 MiB
//	13       L     header envelope: seal.Seal(key, "header:" + name, header JSON)
//	13+L     …     body: seal.NewWriter(…, key, name) stream of the whole session document
//
// The body runs to the end of the file (at least seal.MinStreamBytes); its
// stream authenticates its own end, so a body cut short or followed by
// anything fails when it is read. The header JSON holds what List shows
// plus the binding to the body:
//
//	{"version":2,"title":…,"created_at":…,"updated_at":…,"revision":7,
//	 "message_count":12,"transcript_id":…,
//	 "body_salt":"<base64 of bytes 9..40 of the body stream>"}
//
// The header is written before the body, so it cannot hold the body's
// length: version 2 has no body_bytes (a JSON number's digits would change
// the header's length as the body grows). List, Stat and the trash listing
// therefore check a version-2 file's length only against the shortest
// body; a body cut short is found by Load, by the check before any
// replace, and by rekey and decrypt, all of which read it to its end.
//
// Container version 1, written by earlier builds, differs in byte 8 (0x01),
// in its body, which is one seal version-1 envelope of B bytes ending the
// file (exactly 13+L+B bytes), and in its header JSON, which adds
// "body_bytes":B. It is read everywhere; every sealed save writes version
// 2, so a version-1 file becomes version 2 at its next save or rekey. A
// build that reads only version 1 refuses a version-2 file as too new
// (ErrTooNew, "upgrade chatcli") and never overwrites it, as this build
// does a version above 2.
//
// Memory: a save encodes the document (EncodeTo) straight into the body
// stream and the temporary file; Load decodes the body as its segments
// authenticate (DecodeReader), so its peak is about the session's own, as
// for a plaintext file; rekey and decrypt stream from the old file to the
// new one, holding a segment of each. A version-1 body is read whole, as
// it must be to be authenticated.
//
// name is the canonical (NFC) session name, so a file renamed or copied to
// another name fails authentication (Rename re-seals under the new name,
// streaming); body_salt binds one save's header to that save's body, so a
// header and a body of two saves of one session do not open together.
// List, Stat and the trash listing open only the header envelope (a few
// hundred bytes), whatever the size of the body. The body is a document as
// described above (v2 when chatcli saved it; a plaintext file sealed by
// RekeyFile keeps its document verbatim, any version Decode reads). The
// list index never holds sealed sessions. Load opens the body and checks
// its salt.
//
// Without a key, a sealed file is refused (ErrEncrypted: `session "X" is
// encrypted; set CHATCLI_ENCRYPTION_KEY`) and never overwritten, renamed or
// listed with a title. With the wrong key (or a damaged file; AES-GCM cannot
// tell them apart) every verb fails with an error wrapping seal.ErrWrongKey
// and the file stays byte-identical. Plaintext files are read with a key
// set and sealed at their next save. DecryptFile writes a sealed file back
// as the document its body holds, in one atomic write, streamed
// (`chatcli storage decrypt`).
//
// # Key refusal
//
// A store seals nothing with a key that does not belong to it
// (KeyRefusal, ErrKeyRefused): once its key failed to open a sealed
// session, every later sealed write of that Store (Save, SaveIf, Create,
// Update, Rename; so every save, fork, autosave and mirror above it) fails
// with `session: not written: the encryption key did not open session "X";
// nothing is written under it — restart with the right
// CHATCLI_ENCRYPTION_KEY`, before taking any lock. A key that has not met
// a file yet is checked before the store's first sealed write: the headers
// of the sealed files among the five newest session files (by mtime) are
// opened, and when some are sealed and none opens, the key is refused the
// same way, so no store holds sessions under two keys. The check runs once
// per Store; a store with no sealed file accepts any key.
//
// Without a key, a store that holds sealed sessions (one among the five
// newest files, or one whose load failed with ErrEncrypted) is encrypted:
// AutoWriteRefusal then returns ErrStoreEncrypted, and the surfaces write
// nothing nobody asked for (no autosave, mirror or journal) in plaintext
// next to sealed sessions. An explicit save of a session a person names is
// still written, in plaintext: the person asked for it.
//
// # The journal tail
//
// A file chatcli writes while the session's journal is on is that
// journal's snapshot: its header names the position it covers,
//
//	"journal_pos":{"seq":812,"offset":1048576,"line":813}
//
// (after transcript_id; package journal's Pos: the number of the last
// record the file covers, and where that record's line ended). With the
// store told where the journals are (SetJournalDir), Load returns the file
// plus the records of transcripts/<transcript_id>.jsonl numbered after
// seq (journal.ReadAfter: read from offset, or from the top when the
// journal's lines moved since): message records append their message, a
// rewrite record sets the history to the messages it names, and the
// records' checkpoint bookkeeping (a whole list, or one checkpoint added
// to the file's "checkpoints"; package journal, "Checkpoints") gives the
// checkpoints; Session.JournalPos is then the position
// after the last record and Session.Tail counts them. The damaged lines
// the reader skipped (a torn or NUL-filled line: the records after it are
// still read) are named in Session.JournalWarnings, and in
// Header.JournalWarnings by Stat and List, for every reader to show: the
// store says nothing itself. Stat and List count
// the tail's messages and take its last time as updated_at; StatFile reads
// the file alone. They take a journal exactly as long as the position's
// offset for one with nothing after it, without opening it, only while
// its mtime is not later than the file's; otherwise they read it as Load
// does, and a position at a journal's end stands only while the line
// ending there holds the record it names (journal.ScanAfter): a repair,
// which leaves damaged lines out, can make a journal exactly that long
// with records after the position. After a repair, PlaceJournal (chatcli
// storage verify --repair) gives every file naming the journal, in the
// trash too, the position the journal has now, or removes one whose
// record the repair left out. A file without journal_pos (written with the journal
// off, by ChatCLI, or by an older chatcli) stands on its own. ChatCLI
// reads the snapshot as a v2 file and ignores journal_pos.
//
// # Lineage
//
// A session made from another (a fork, whole or --at N or --checkpoint K;
// the conflict fork NAME.conflict-… of a rewrite conflict; attach or save
// under a new name while bound) names its parent in its header:
//
//	"lineage":{"parent":"main","parent_transcript":"<id>","at":12,"kind":"fork","created_at":"…"}
//
// parent is the parent's name then, parent_transcript its transcript_id
// (absent with the journal off; it survives a rename of the parent, so
// `chatcli session tree` finds the parent under its new name), at the
// number of the parent's messages the session started from, kind one of
// fork, conflict, attach, save. Later saves keep it; a rename moves it
// with the file. It sits in the header so that the tree is drawn from
// headers alone (List, the list index and the sealed header carry it too).
// A member that does not decode is ignored (and not written back);
// ChatCLI ignores the member, and drops it when it rewrites the file, so
// such a session then shows as a root.
//
// # After a rewrite by ChatCLI
//
// ChatCLI rewrites a file with only the members and fields its types know:
// transcript_id, journal_pos, revision, the times, checkpoints and meta
// fields such as unanswered are dropped (its ChatHistory round trip). Every
// save of a session with a journal therefore also keeps its link,
// transcripts/links/<name>.json (LinksDirName: the journal id, created_at
// and the meta ChatCLI drops, by message identity hash). Load of a file
// without transcript_id whose link names a journal holding at least one of
// its messages sets Session.Relinked and gives back transcript_id,
// created_at, the journal's last checkpoint list and that meta; the file's
// history, the newer, stands (journal_pos stays unset) and the
// conversation records it in the journal when it opens it. Retention counts
// a linked journal as named by its session. The link also records a
// revision ahead of every save of the name, and a save of a file without
// a revision continues above it, so revisions only grow across ChatCLI's
// rewrites. A session without a journal (CHATCLI_SESSION_TRANSCRIPT=false)
// keeps a link for that revision alone, without transcript_id. Rename
// moves the link with the file.
//
// # The trash
//
// Store.Trash moves sessions/<name>.json unchanged (sealed or not: the name
// it was sealed for stays the same) to
// $CHATCLI_HOME/trash/<name>.<YYYYMMDD-HHMMSS>[-n].json (UTC, the store's
// clock; -n for further copies within one second; folder mode 0700, created
// with the folder holding it fsynced) by atomicfile.Move, so after a crash
// the file is in one place or both, never neither. Restore moves the newest
// copy back the same way, under the session's lock, never over an existing
// session. Journals stay in transcripts/.
package session
