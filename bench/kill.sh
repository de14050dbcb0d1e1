#!/usr/bin/env bash
# kill.sh builds chatcli and runs the kill -9 harness (bench/killharness)
# against it: at least 300 chatcli processes are killed with SIGKILL at
# random moments while they run turns on named sessions (-p --session, and
# REPL scripts of several prompts bound with /session attach), REPL scripts
# with no session (autosaved at exit), session fork, session rename,
# session delete --yes then restore, session restore after a delete, and
# storage rekey. One store in a fresh temporary CHATCLI_HOME: a plaintext
# phase, then the same store encrypted (CHATCLI_ENCRYPTION_KEY, random
# 32-byte keys from crypto/rand; CHATCLI_ENCRYPTION_KEY_OLD for every rekey
# after the first). A session of 3,000 messages is grown first, so its file
# (the snapshot of its journal) is rewritten while kills land. The offline
# provider answers: no network, no key. 3 to 6 minutes with the defaults.
#
# Kill delays go from 0 to 1.2 times the usual duration of the kind of
# operation (measured by unkilled calibration runs): 0-20 ms for most,
# up to 150 ms (-maxdelay) on the long session, up to 500 ms for rekey
# (-rekeymaxdelay). In the plaintext phase, half the kills during a turn
# (-tear) are followed by cutting the journal inside its last batch when
# that batch is the unacknowledged prompt's: what a kill inside the
# journal's write(2) leaves, which real kills rarely hit.
#
# After every operation it checks, with chatcli's own commands and by
# reading the store: (1) every acknowledged turn (a -p that exited 0 with its
# reply, a REPL line whose reply line was printed) is in the session now
# holding it; (2) a session killed while renamed, trashed or restored is
# under its old name, its new name or in the trash; (3) every file loads: no
# unreadable entry in `session list --json`, `session show` works, and
# `storage verify` reports no damage but torn last journal lines.
#
# Run from anywhere in the repository:
#
#   bench/kill.sh                         # 300 kills, 40% of them on the encrypted store
#   bench/kill.sh -kills 1000 -seed 42    # more kills, a fixed random seed
#   bench/kill.sh -sealed 0 -grow 3000    # plaintext only, a longer session
#   bench/kill.sh -tear 0                 # real kills only
#   bench/kill.sh -h                      # every flag
#
# It prints the seed and the store's folder, progress on stderr, then the
# figures: per operation kind the runs, the kills (runs that ended before
# their kill and calibration runs are not kills), the kills on the long
# session and the longest delay; kills by delay; the acknowledged turns
# checked and how many checks of one turn in one session were made; counted
# events (torn journal lines, temporary files left by kills inside atomic
# writes, kills inside a write of the long session's file, renames killed
# under both names, rekeys finished by a second run ...); and every
# violation with its invariant, the operation, its kill delay and the
# folder holding a copy of the store and the processes' output (-keep; the
# store itself is kept too, and its encryption key printed). Exit status 0
# when no invariant was broken, 1 otherwise, 2 when it could not run.
#
# Needs: go, bash. Linux.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && go build -o "$work/chatcli" ./cmd/chatcli && go build -o "$work/killharness" ./bench/killharness)
"$work/killharness" -chatcli "$work/chatcli" "$@"
