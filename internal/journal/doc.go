// Package journal is the append-only transcript under every conversation:
// $CHATCLI_HOME/transcripts/<id>.jsonl, one per session lineage. It records
// every message once, the first time it appears in the live history, and
// every rewrite of that history (compaction, rewind, repair, trim, edit), so
// nothing said is ever lost and the live history at any recorded moment can
// be rebuilt. It knows nothing of LLMs or terminals.
//
// # File format
//
// UTF-8 text, one record per line, each line a JSON object followed by a
// single "\n" (0x0A). Lines are split on "\n" only; JSON escapes every
// control character inside strings, so "\r", U+0085 and U+2028 in content
// never end a line. There is no line-length limit. Three record types:
//
//	{"type":"message","seq":7,"at":"2026-11-30T08:00:00.123Z","hash":"<32 hex>","message":{…},"crc":"<8 hex>"}
//	{"type":"rewrite","seq":8,"at":"…","reason":"compact","hashes":["<32 hex>",…],"prev":12,"crc":"<8 hex>"}
//	{"type":"checkpoints","seq":9,"at":"…","checkpoints":[…],"crc":"<8 hex>"}
//
// "seq" numbers the records of a journal from 1 in file order; a record
// written without it (by an older version) takes the number after the
// record before it. A position in a journal (Pos) is the number of the
// last record before it, with the byte offset and line where that record
// ended as a hint: sealing, rekeying and repairing a journal keep every
// record and its number but move the lines, and a reader given a position
// whose offset no longer starts the record numbered after it (or, when no
// record follows the offset, no longer ends the record it names: a
// repaired journal may end exactly there) reads from the top and skips
// the records up to it (ReadAfter, OpenAt). Session
// files name the position they cover (package session, "The journal
// tail"). "checkpoints" carries a conversation's whole checkpoint list
// (package rewind's form) as it stood after a change; most changes are
// one checkpoint added, recorded on the turn's own record instead (see
// "Checkpoints" below). Readers that know only the first two types skip
// it with a warning.
//
// "message" carries one message (package message's JSON shape) and its hash.
// "rewrite" carries the ordered hashes of the whole live history after a
// rewrite; "reason" names it (compact, rewind, repair, trim, edit, adopt,
// sync); "prev" is the length of the view before the message records
// written just ahead of it, so the history a rewrite replaced is the view's
// first "prev" hashes (omitted when 0); "crc" is the record's checksum
// (below). Unknown members are ignored; a record of an unknown type is
// skipped and reported like a damaged line.
//
// # Checkpoints
//
// A conversation's checkpoint list (package rewind's form: a JSON array
// of objects, oldest first) is recorded in one of two ways. A change that
// adds one checkpoint to the end of the list, keeping the newest "kept"
// entries before it (all of them, or all but the oldest once the list is
// full), is recorded on the last message or rewrite record the same batch
// writes, in two more members:
//
//	{"type":"message","seq":10,…,"message":{…},"checkpoint":{"at":"…","prompt":"…","messages":28,"digest":"<32 hex>"},"kept":19,"crc":"<8 hex>"}
//
// so a turn's checkpoint costs the few hundred bytes of one checkpoint,
// whatever the length of the list. Any other change (a rewind dropping
// the newest, two windows' lists merged, the newest replaced, a list
// changed with no other record to write) is a "checkpoints" record with
// the whole list. Replaying records gives the list (CheckpointList):
// from the list a reader starts from (none at the journal's top; a
// session file's "checkpoints" at its journal_pos), a "checkpoints"
// record replaces it, a "checkpoint" member keeps the newest "kept"
// entries (all when "kept" exceeds them) and appends the checkpoint. A
// checkpoint is recorded as added only to a list the writing handle read
// from the journal itself: a handle opened at a session file's position
// (OpenAt) takes the file's list as the one there and records its first
// change with the list whole; a sync that changes neither the history nor
// that list (a load, a fork) writes nothing. A session file names a
// position only when its "checkpoints" is the list there, so a reader
// adding the tail's checkpoints to the file's gets the writer's list.
//
// Readers that do not know the two members (chatcli before they existed)
// ignore them like any unknown member: they read every message and no
// damaged line, with the checkpoint list of the last "checkpoints"
// record, or of the session file, instead of the newest.
//
// # Checksums
//
// Every record chatcli writes ends with a "crc" member: the CRC-32C of the
// record's JSON without that member, using the Castagnoli polynomial
// (RFC 3720 §B.4; Go's hash/crc32.Castagnoli, the checksum etcd's WAL
// uses), written as 8 lowercase hex digits, most significant first. The
// exact bytes: let B be the record's JSON encoding (encoding/json member
// order, no HTML escaping, no whitespace, no "\n"), which ends in "}"; the
// line is B without its final "}", then
//
//	,"crc":"<8 hex>"}
//
// then "\n", where the 8 hex digits are CRC-32C(B). To check a line (its
// bytes before the "\n"), the reader takes its last 18 bytes, which must be
// that member and the closing brace, and computes CRC-32C over the bytes
// before them followed by "}". A line is an ordinary JSON object, so older
// readers, which ignore unknown members, read it as before. A record without
// a "crc" member (written before records carried one) is read unchecked; a
// record whose checksum does not match, or whose "crc" member is not in
// that form at the end of the line, is a damaged line (the warning says
// "checksum mismatch" for the former). The plaintext of a sealed line
// carries the member too, being encoded the same way; there AES-GCM already
// authenticates every byte, and a sealed record without it is read as well.
//
// # Several writers
//
// Commit is how a conversation bound to a session records each step: under
// the journal's lock it first reads what other processes appended since
// the handle last read or wrote, then appends this side's new records in
// one batch, so the appends of several windows interleave in the
// journal's order, a turn's messages kept together; two rewrites of the
// same view are refused (ErrRewriteConflict) and nothing is written. The
// rules are in Commit's comment. A handle whose file was replaced since
// (sealed, rekeyed, repaired by another process) reads it again from the
// top and tells what others appended by their records' numbers.
//
// # Hashes
//
// A message's identity hash is SHA-256 over a length-prefixed encoding of
// its role, content, tool calls (id, name, arguments, in order),
// tool_call_id and images, and its occurrence number among earlier messages
// of the same history with the same fields (0 for the first). Meta is not
// covered. The first 16 bytes are written as 32 lowercase hex digits. So two
// identical "ok" messages have two hashes, and a message keeps its hash when
// messages before it that differ from it are removed.
//
// # The view
//
// Replaying a journal from the top gives its view, the hash list of the
// live history as last recorded: a message record appends its hash, a
// rewrite record replaces the whole list. Sync compares the live history
// with the view: when the history only grew and every new message is new to
// the journal, it appends one message record per new message; otherwise it
// appends message records for the messages the journal never saw, then one
// rewrite record. Nothing is written twice.
//
// # Durability and damage
//
// The records of one Sync (however many: a first Sync of a 40,000-message
// history writes 40,000) are one write(2) of all their lines on a file
// opened with O_APPEND, under an exclusive advisory lock (flock) on the
// journal, then one fsync; a kill -9 loses at most the records of the
// batch being written, and leaves whole lines before the torn one. Before
// appending, a file that does not end in "\n" (a torn last line) gets the
// batch prefixed with "\n", so the torn bytes stay in place as a stray line
// and the new records start lines of their own. The reader skips and counts
// every line it cannot use (torn, NUL-filled, not JSON, not a record, a
// checksum that does not match) with a Warning naming the file and line
// number, and goes on reading: damage is never fatal and never silently
// truncates the journal. Verify reads a whole journal under its lock and
// lists its damaged lines; Repair (chatcli storage verify --repair) copies
// a damaged journal durably to <id>.jsonl.broken (then .broken-1, -2, …;
// never replacing a copy) and rewrites it, in one atomic replacement under
// its lock, with the lines of the records that read back, byte for byte
// and in order, as etcd's WAL repair keeps the damaged file before cutting
// it. The records keep their numbers, so a position still names the same
// place, but the offsets after a damaged line move: `storage verify
// --repair` then places the positions the session files name again
// (journal.Place; package session, PlaceJournal). Nothing else renames,
// removes or rekeys a .broken copy.
//
// An append waits for the journal's lock with a growing back-off
// (0.2-5 ms) up to DefaultLockTimeout, then fails with ErrLocked naming
// the journal file; the lock goes with its process, so a crash never
// leaves it held. The first append to a journal with nothing in it yet
// fsyncs the journal folder before writing, so the new file's entry
// survives a crash with its first records; when that fsync fails nothing
// is appended. fsync answering EINVAL or ENOTSUP counts as done
// (atomicfile.SyncFile, atomicfile.Warnings). A whole-journal replacement
// (the sealing below, Fork's copy) that landed but whose folder fsync
// failed returns an error wrapping atomicfile.ErrNotDurable: the records
// are in the file (Fork returns the new id with it).
//
// # Encryption at rest
//
// With a key (Open, Fork and the readers take a seal.Key; the zero Key is
// plaintext) every line appended is a sealed line in package seal's line
// form, "chatcli-sealed:v1:" + base64(envelope) + "\n", whose plaintext is
// the record's JSON without its "\n", sealed for the name "journal:<id>"
// (LineName), so lines copied into another journal do not open there; Fork
// re-seals every line for the new id. A journal may hold plaintext and
// sealed lines: plaintext lines stay readable with a key, and the first
// append with a key to a journal holding plaintext lines first rewrites it
// with every line sealed, in one atomic replacement (atomicfile) under its
// lock, together with the records being appended. The lock is retaken
// until it holds the file the path names, since flock(2) locks an inode and
// a replacement makes a new one. An open Journal remembers the inode it
// read its byte offset in; when the path names another inode (another
// process sealed or rekeyed the journal) or a shorter file, its next Sync
// reads the journal again from the top, so it neither misreads the new
// lines nor appends plaintext after them.
//
// Without a key, a journal of sealed lines fails to read or append
// (ErrEncrypted): nothing is ever appended in plaintext next to sealed
// lines. With a key that opens none of its sealed lines, reading fails with
// an error wrapping seal.ErrWrongKey and nothing is appended; a sealed line
// that does not open among lines that do is a damaged line (skipped, with a
// warning). A journal holding plaintext records is a plaintext journal
// (chatcli seals a journal whole, never line by line): a sealed line in it
// that does not open, with a key or without one, is a damaged line too,
// skipped and counted, never proof that the journal is sealed. An empty
// line is a stray line as well (chatcli writes none). Rekey re-seals a
// whole journal under a new key in one atomic replacement, and Decrypt
// writes it back as plaintext the same way; both stream the lines from
// the old file to the new one, so their memory is a line, not the
// journal. Fork, Rekey and the migration follow the reader's rule: a
// sealed line that opens with neither key among lines that do (a line torn
// by a crash, a damaged one) is left out of a fork, with a warning, and
// kept verbatim by Rekey (which reports it) and by the migration; only a
// journal none of whose complete sealed lines opens fails, as a wrong key.
package journal
