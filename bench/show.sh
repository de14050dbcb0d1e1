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
# Needs: go, bash, GNU time at /usr/bin/time.
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

for flags in "" "--json"; do
	/usr/bin/time -f "%M %e" -o "$work/rss" "$work/chatcli" session show long $flags >"$work/out"
	read -r kib secs <"$work/rss"
	awk -v k="$kib" -v l="$live" -v s="$secs" -v f="${flags:-text}" -v o="$(stat -c %s "$work/out")" \
		'BEGIN { printf "session show (%s): peak RSS %d KiB = %.2f x the live history, %.2f s, %d bytes out\n", f, k, k * 1024 / l, s, o }'
done
