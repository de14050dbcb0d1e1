// Package shadow keeps file checkpoints for coder mode: before a tool
// changes a file, the file's prior state is stored in a shadow git
// repository kept for that workspace under CHATCLI_HOME, so that rewinding
// a conversation can also restore the code. The user's own repository
// (.git, its index, refs, hooks and config) is never read or written.
//
// # Layout
//
// One repository per workspace, at
//
//	$CHATCLI_HOME/checkpoints/<key>/
//	  workspace   the workspace's absolute path and "\n"
//	  lock        flock(2) file: every change to state, head or git/ holds it
//	  state       the manifest of the current state (below), replaced atomically
//	  head        "<commit id> <sha256 hex of the state bytes it holds>\n" (keyed: Encryption)
//	  index       GIT_INDEX_FILE of every git run (plumbing only: never written)
//	  git/        a bare git repository (GIT_DIR); branch refs/heads/checkpoints
//
// With an encryption key the repository has no git/ and no index (see
// Encryption below) but
//
//	objects/    one sealed file per content
//	manifests/  one sealed file per checkpoint
//
// Folders are 0700 and files 0600 (git's objects 0400), whatever the umask.
//
// where <key> is the first 16 hex digits of SHA-256 of the workspace's
// absolute path. Nothing is created until a tool first changes a file.
//
// # Manifest
//
// The manifest lists every path a tool touched (slash-separated, relative
// to the workspace) and every ancestor folder of such a path, each with two
// states: Now, what the last hook saw (what the tools left), and Base, what
// the first hook saw (the state before any tool touched it). It also lists
// every run_command line with its time. Records end with a NUL byte:
//
//	chatcli-shadow 1
//	p <kind> <perm> <blob> <base kind> <base perm> <base blob> <path>
//	c <unix nanoseconds> <command line>
//
// kind is file, link (a symbolic link; the blob holds its target), dir or
// gone; perm is the octal permission bits ("-" for gone); blob is the git
// blob id of the content ("-" for dir and gone). Blob ids are git's: the
// SHA-1 of "blob <size>\x00<content>".
//
// # Checkpoints
//
// Checkpoint commits the manifest (one git fast-import run) when it
// changed since the last checkpoint: the commit's tree holds "manifest" (the manifest bytes),
// "now/<path>" and "base/<path>" (the file contents, so git keeps every
// blob reachable). The commit id is the checkpoint id; an unchanged state
// returns the previous id without running git, and before any tool change
// the id is EmptyID (git's empty tree), which names the state before
// everything.
//
// Restoring to a checkpoint sets every tracked path back to its Now state
// in that checkpoint's manifest, or, for a path first touched after it, to
// its Base state. Only paths whose target differs from the current Now
// change. A path whose file on disk differs from its Now state was changed
// by hand since the tool last wrote it; Restore asks before overwriting it.
// Command lines recorded after the checkpoint are reported as effects that
// cannot be undone.
//
// # Encryption
//
// With CHATCLI_ENCRYPTION_KEY set (Open's key), nothing that holds
// conversation or code is kept readable: the state file is one seal
// envelope (internal/seal) of the manifest bytes above, sealed for the name
// "shadow:<key>:state" (<key> the repository's folder name); the content
// of blob id is objects/<first 40 hex digits of seal.MAC(key, "shadow
// object", id)>, an envelope of the content sealed for
// "shadow:<key>:object:<id>"; the manifest of checkpoint id is
// manifests/<id>, an envelope sealed for "shadow:<key>:manifest:<id>",
// and a new checkpoint's id is the first 40 hex digits of seal.MAC(key,
// "shadow checkpoint", manifest). Blob ids inside manifests stay git's,
// so a hand edit is told the same way; file names on disk are keyed, so
// they confirm no guessed content. Equal contents are stored once; git is
// not run. The envelope names bind each file to its place: a file copied
// over another fails to open (seal.ErrWrongKey). The workspace, lock and
// head files stay plaintext (a path, nothing, and a checkpoint id with
// the hex of seal.MAC(key, "shadow state", manifest) in place of the
// SHA-256).
//
// A repository written without a key is sealed the first time it is used
// with one (under its lock): every content and checkpoint manifest its
// commits and state name is sealed, checkpoint ids are kept, and git/ and
// index are removed last, so an interrupted run starts over. Used without
// the key, a sealed repository refuses every change and plan with
// ErrSealed; with the wrong key, errors wrap seal.ErrWrongKey. Rekey
// (`chatcli storage rekey`) seals it again under a new key: manifests and
// state in place, contents under their new keyed names before the old
// names are removed.
//
// # Git
//
// The git command-line tool (hash-object, cat-file, fast-import, init)
// runs with GIT_DIR and GIT_INDEX_FILE pointing into the shadow folder, every other GIT_* variable removed,
// GIT_CONFIG_NOSYSTEM=1, GIT_CONFIG_GLOBAL=/dev/null and HOME set to the
// shadow folder, so no user or system configuration, hook or fsmonitor
// applies; gc.auto=0 keeps git from pruning; the repository is made with
// --shared=0600 and an empty template. Commits are authored by
// "chatcli <chatcli@localhost>". Only plumbing commands are used, and only
// the files the tools touched are hashed: the workspace is never scanned.
//
// # Retention
//
// List and RemoveIfGone let the retention pass delete the repository of a
// workspace that no longer exists.
package shadow
