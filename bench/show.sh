#!/usr/bin/env bash
# show.sh measures the peak memory of `chatcli session show` (text, then
# --json) in a fresh process over one long session written by chatcli's
# conversation engine (bench.LongSession: bound from its first turn, with
# its journal, checkpoints and snapshots), against the live history's size
# (the heap the loaded session holds, bench.LiveHistoryBytes). The target
# is a peak RSS of at most 1.5 times the live history.
#
# Run from the repository root:
#
#   bench/show.sh                                 # 200,000 messages, 1 GB (builds for minutes)
#   MESSAGES=20000 BYTES=100000000 bench/show.sh  # a tenth of it
#   BENCH_HOME=/tmp/long bench/show.sh            # build the session there once, keep it, reuse it
#
# SEALED=1 measures the same session sealed: a copy of the store is sealed
# under a generated CHATCLI_ENCRYPTION_KEY by `chatcli storage rekey` (the
# product's own path, plaintext to sealed), then `session show` runs with
# that key, and `storage rekey` is measured once more, to a second key:
#
#   SEALED=1 MESSAGES=40000 BYTES=200000000 bench/show.sh
#
# Needs: go, bash, base64, GNU time at /usr/bin/time.
set -euo pipefail

MESSAGES=${MESSAGES:-200000}
BYTES=${BYTES:-1000000000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/chatcli" "$root/cmd/chatcli"
go build -o "$work/mkstore" "$root/bench/mkstore"

home=${BENCH_HOME:-$work/home}
if [ ! -e "$home/sessions/long.json" ]; then
	"$work/mkstore" -home "$home" -long long -messages "$MESSAGES" -bytes "$BYTES"
fi
export CHATCLI_HOME=$home
read -r live msgs < <("$work/mkstore" -home "$home" -live long)
echo "session long: $msgs messages, file $(stat -c %s "$home/sessions/long.json") bytes, live history $live bytes"

# peak runs "$@" under GNU time and prints its peak RSS line, labelled $1.
peak() {
	local what=$1
	shift
	/usr/bin/time -f "%M %e" -o "$work/rss" "$@" >"$work/out"
	read -r kib secs <"$work/rss"
	awk -v k="$kib" -v l="$live" -v s="$secs" -v f="$what" -v o="$(stat -c %s "$work/out")" \
		'BEGIN { printf "%s: peak RSS %d KiB = %.2f x the live history, %.2f s, %d bytes out\n", f, k, k * 1024 / l, s, o }'
}

if [ "${SEALED:-}" = 1 ]; then
	cp -a "$home" "$work/sealed"
	export CHATCLI_HOME=$work/sealed
	CHATCLI_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)
	export CHATCLI_ENCRYPTION_KEY
	peak "storage rekey (plaintext to sealed)" "$work/chatcli" storage rekey
	echo "sealed session long: file $(stat -c %s "$CHATCLI_HOME/sessions/long.json") bytes, container version $(od -An -tu1 -j8 -N1 "$CHATCLI_HOME/sessions/long.json")"
	for flags in "" "--json"; do
		peak "sealed session show (${flags:-text})" "$work/chatcli" session show long $flags
	done
	CHATCLI_ENCRYPTION_KEY_OLD=$CHATCLI_ENCRYPTION_KEY CHATCLI_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64) \
		peak "storage rekey (sealed to a new key)" "$work/chatcli" storage rekey
	exit 0
fi

for flags in "" "--json"; do
	peak "session show (${flags:-text})" "$work/chatcli" session show long $flags
done
