// Package contexts keeps named snapshots of files and folders
// (`/context create NAME PATH…`) and the records of which snapshots a
// conversation has attached (`/context attach`), and turns both, with the
// bootstrap files and the global memory, into the system content the
// engine sends before the history of every request (Supplier).
//
// # Snapshots on disk
//
// CHATCLI_HOME/contexts/<name>.json, one file per context (folder 0700,
// file 0600), written once by Create through internal/atomicfile and
// removed by Delete; names follow the session-name rule
// (session.NormalizeName). Plaintext form:
//
//	{"version":1,"name":"docs","created_at":"2026-12-01T15:04:05Z",
//	 "sources":["/abs/path",…],
//	 "files":[{"path":"docs/a.md","bytes":1234,"chunks":2},…],
//	 "skipped":{"ignored":3,"binary":1},
//	 "chunks":[{"file":"docs/a.md","line":1,"text":"…"},…]}
//
// files and chunks in walk order (lexical within each source); a file's
// path is relative to the folder named on the command line (or its base
// name for a file named directly); a chunk's line is the 1-based line of
// its file where it starts. A folder is walked with its .gitignore files
// honoured (those of the folders above it up to the enclosing repository
// and those inside it, with git's rules, through go-git's gitignore
// package), never into .git, never through symbolic links; files holding
// a NUL byte in their first 8 KiB are taken for binary and skipped. The
// text kept is at most MaxBytes in all: a larger selection is refused with
// an error giving both sizes. Chunks are at most ChunkBytes, cut between
// lines (a longer line between characters).
//
// With CHATCLI_ENCRYPTION_KEY set the file is one seal envelope
// (internal/seal) of those bytes, sealed for "context:<name>". A file
// that cannot be read is an error naming it.
//
// # Attachments
//
// The conversation's attachments are the session file's `attachments`
// member (ChatCLI's format: context id, priority, selected chunks,
// retrieval mode), an array of
//
//	{"context_id":"docs","priority":0,"selected_chunks":[1,3],"mode":"full"}
//
// context_id is the context's name; selected_chunks (1-based, omitted for
// all) limits what is sent; mode is "full" (every selected chunk, each
// request) or "retrieval" (the RetrievalChunks selected chunks ranked
// best for the latest prompt by BM25, internal/search). Contexts are sent
// in order of priority, highest first, then in the order attached. A
// record whose context no longer exists is skipped with a notice and
// kept, so a context created again under its name is attached again.
// Attached contexts are system content of each request, never messages of
// the history: compaction cannot summarise them away.
package contexts
