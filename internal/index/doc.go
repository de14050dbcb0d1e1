// Package index is the persistent full-text index of a store's sessions
// and journals, kept in CHATCLI_HOME/index, so that a new process answers
// a search without reading the sessions it searches. It is an inverted
// index in immutable segments, named by a small manifest; it is updated
// as journals grow (a turn adds the postings of its own records only),
// marks what a deleted or replaced journal or session held with
// tombstones, and merges small segments once enough of them gathered.
// Ranking is package search's BM25 over its tokens and terms (case and
// accent folding, CJK characters and Thai, Lao, Khmer and Myanmar pairs),
// with phrases and exclusions (search.ParseQuery) and filters (Filter);
// a message present in several forks is one hit (Hit.Members).
//
// The folder can be deleted at any time: the next Sync rebuilds it. A file
// that is damaged, foreign, of a newer format, sealed under another key,
// or plaintext in an encrypted store is reported and the index rebuilt;
// nothing in it is trusted. Without a key a sealed index is left alone, as
// every sealed file of the store is: Sync fails (session.ErrStoreEncrypted)
// rather than replace it with a plaintext index of the plaintext sessions.
//
// # Files
//
//	index/MANIFEST                 the manifest
//	index/seg-<16 hex digits>.ccx  a segment; the digits number it (MANIFEST's next_segment)
//	index/log-<16 hex digits>.ccl  the log the manifest names, numbered from next_segment too
//	index/lock                     flock(2)ed by the process writing the index
//
// Files are 0600 in a 0700 folder. The manifest and segments are written
// whole by package atomicfile (temporary file, fsync, rename, fsync of the
// folder) and never changed afterwards; the log only grows (see Log). A
// small update, such as one turn (at most 1 MiB left to read), is one
// entry appended to the log and made durable with fdatasync(2): one write.
// A larger one writes new segments, then a new manifest naming them; every
// manifest such an update writes folds the log's entries into a segment
// first and names a new, empty log, and the old log is removed after the
// manifest's rename. Merges run in the background (a goroutine of the
// process that updated, holding the lock file meanwhile): a fold of a log
// past 4 MiB or 64 entries, and a merge of small segments, write their
// segment, then a new log holding the entries appended to the old one
// meanwhile (with the new log_id), then the manifest naming them, and
// remove the log and segments replaced once the manifest's rename is
// durable. A segment or log the manifest does not name, or a temporary
// file, left by an interrupted write or merge, is removed by the next
// update. Readers hold no lock.
//
// Every file starts with a 16-byte header and is then a sequence of
// frames. Integers are little-endian; "uvarint" and "varint" are Go's
// encoding/binary varints (LEB128, varint zig-zag):
//
//	offset  size  field
//	0       8     magic "\x89CCX\r\n\x1a\n"
//	8       1     kind: 'M' manifest, 'S' segment, 'L' log
//	9       1     format version: 2 (a higher one is ErrTooNew; a lower one,
//	              ErrOldFormat, is never read: the index is rebuilt)
//	10      1     flags: bit 0 set when sealed; other bits zero
//	11      5     zero
//
// A frame is
//
//	4  length n of the payload (uint32)
//	4  CRC-32C (Castagnoli) of the payload
//	n  payload: the plaintext, or when sealed package seal's envelope of it
//	   (AES-256-GCM, own HKDF-derived key), sealed for the name
//	   "index:<file name>:<offset of the frame's first byte>"
//
// so a frame opens only in the file and at the place it was written for.
// With a key set every frame is sealed: terms, documents and names are
// never on disk in plaintext, and the index tells no more than file sizes.
//
// # Manifest
//
// MANIFEST is the header and one frame whose plaintext is a JSON object:
//
//	{"next_segment":N, "next_slot":N,
//	 "segments":[{"file":"seg-….ccx","docs":N,"bytes":N}, …],
//	 "sources":[{"slot":N, "journal":"<transcript id>" | "session":"<name>",
//	             "version":"<revision>/<size>/<updated_at ns>" (session sources),
//	             "pos":{"seq":N,"offset":N,"line":N}, "messages":N,
//	             "docs":N, "tokens":N, "names":["<session>", …], "last_name":"<session>",
//	             "trash_checked":true}, …],
//	 "dead":[slot, …],
//	 "files":{"<session>":{"size":N,"mtime_ns":N,"transcript_id":"…","revision":N,"updated_at":"RFC 3339"}, …},
//	 "log":"log-….ccl", "log_id":N}
//
// A source is a journal (transcripts/<id>.jsonl) or, for a session without
// one, the session's snapshot. pos is a journal's watermark (journal.Pos):
// the records before it are indexed, and an update reads the journal from
// there (journal.ScanAfter); messages counts the message records before it,
// so the next one is at position messages+1. A snapshot is indexed whole
// again when its version changes. names are the sessions naming the
// journal now; last_name the last that did, shown (marked deleted) for a
// journal no session names (for a journal first seen without a session, the
// newest trashed session naming it; trash_checked says the trash was
// searched). dead holds tombstones: slots of sources
// deleted or replaced (a journal shorter than its watermark, a rewritten
// snapshot), whose documents no longer match; a merge drops them and the
// slot leaves dead once no segment holds any. docs and tokens of the
// sources give BM25's N and average length. files remembers each session
// file's size, modification time and header members, so an update reads
// the header of changed files only.
//
// # Log
//
// The log is the header and a sequence of frames, one per entry, appended
// in order; the index is the manifest with the log's entries applied to
// it, first to last. An entry's plaintext is 8 bytes: the manifest's
// log_id (uint64), so no entry applies to another manifest; uvarint
// length + bytes of a JSON object, the delta:
//
//	{"next_slot":N, "sources":[<source>, …], "removed":[slot, …],
//	 "dead":[slot, …], "files":{"<session>":<file>, …}, "gone":["<session>", …]}
//
// (sources added or changed, whole, as in the manifest; slots of sources
// removed; every tombstone after the entry; session files added or
// changed, and those gone); then, when the update indexed messages, a
// segment (see Segments) in plaintext, since the frame seals it whole:
// it is held in memory. The entries end at the first frame that does not
// read whole, or whose length is zero: an append a crash cut, or the
// zeros a crash may leave past the last write. The index is then what it
// was before that append, and the update is made again from the journals'
// watermarks; the next append cuts the log back there first. An entry
// that reads whole but does not decode, or carries another log_id, is
// damaged and the index rebuilt. A log past 4 MiB or 64 entries is folded
// by a merge in the background (see Files); updates go on appending to it
// meanwhile, up to four times those bounds, past which an update folds it
// itself.
//
// # Segments
//
// A segment is the header, then its postings frames, its documents frame,
// its dictionary frame, and a 24-byte trailer:
//
//	8  offset of the documents frame (uint64)
//	8  offset of the dictionary frame (uint64)
//	4  zero
//	4  CRC-32C of the trailer's first 20 bytes
//
// Documents (the documents frame's plaintext): uvarint count, then per
// document, numbered from 0 in order: uvarint slot, uvarint position (1-based
// in its source), uvarint number of terms, uvarint length + bytes of the
// role, varint Unix seconds it was recorded (0: unknown), 8 bytes of its
// fork-family key (FNV-1a 64 of the message's hash bytes and its position:
// the same message at the same place of two forks shares it), and its
// journal record's start (journal.Pos, for the snippet): varint seq,
// varint offset, uvarint line.
//
// Dictionary: uvarint number of postings frames, uvarint offset of each;
// uvarint number of terms; then the terms in byte order, each: uvarint
// bytes shared with the previous term (0 for every 64th, a restart point),
// uvarint length + bytes of the rest, uvarint document frequency, uvarint
// postings frame, uvarint offset and uvarint length of its postings in the
// frame's plaintext. A reader keeps the restart terms and decodes at most
// 64 entries per lookup.
//
// Postings (each postings frame, about 64 KiB, holds the lists of
// consecutive terms): a term's list holds the documents holding it in
// increasing id order, in blocks of 128 documents (the last block may
// hold fewer). A block is its documents part: per document, uvarint id
// minus the previous id (the id itself for the list's first), uvarint
// term frequency tf; then its positions part: per document, tf uvarints:
// each position (token number in the message, from 0) minus the previous
// one (the first from 0). Positions answer phrase queries; a query that
// needs only ids (an exclusion, a document bounded out) never reads them.
//
// A list of up to 128 documents is its one block. A longer one starts
// with uvarint number of blocks, uvarint length of its skip table, and
// the skip table, one entry per block, before the blocks:
//
//	uvarint  id of the block's last document minus the previous block's
//	         last (the first entry: the id itself)
//	uvarint  length of the block's documents part
//	uvarint  length of its positions part
//	uvarint  number of impacts, 1 to 4; then per impact, in increasing
//	         order of both: uvarint tf, uvarint document length (number
//	         of terms), each minus the previous impact's (the first whole)
//
// Every document of the block has a frequency at most that of some
// impact whose length is at most the document's: the impacts bound the
// term's BM25 score in the block (as Lucene's impacts do), so a query for
// the best hits passes over a block that cannot reach them by its entry
// (block-max WAND), without decoding it.
package index
