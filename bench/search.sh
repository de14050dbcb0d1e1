#!/usr/bin/env bash
# search.sh times `chatcli session search` in fresh processes over a store
# of distinct conversations written by chatcli's conversation engine
# (bench.SearchStore, built once by `go run ./bench/mkstore -search`):
# first building the index from nothing (index/ removed), then cold
# processes answering queries from the index that exists.
#
# Run from the repository root:
#
#   bench/search.sh                              # 200 sessions x 5 MB (1 GB) under /tmp
#   N=2000 SESSION_BYTES=10240 PROMPT_BYTES=2048 bench/search.sh   # 2,000 x 10 KB
#   BENCH_HOME=/tmp/store RUNS=20 bench/search.sh                   # reuse a store
#
# The store is kept in BENCH_HOME (default /tmp/chatcli-search-<N>x<SESSION_BYTES>)
# for later runs; delete it when done. The operating system's page cache
# is left as it is: "cold" is a new process, not a cold disk.
#
# Needs: go, bash 5, GNU time at /usr/bin/time.
set -euo pipefail

RUNS=${RUNS:-10}
N=${N:-200}
SESSION_BYTES=${SESSION_BYTES:-5242880}
PROMPT_BYTES=${PROMPT_BYTES:-16384}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/chatcli" "$root/cmd/chatcli"
home=${BENCH_HOME:-/tmp/chatcli-search-${N}x${SESSION_BYTES}}
if [ ! -e "$home/sessions/search-0000.json" ]; then
	(cd "$root" && go run ./bench/mkstore -search -home "$home" -n "$N" -session-bytes "$SESSION_BYTES" -prompt-bytes "$PROMPT_BYTES")
fi
export CHATCLI_HOME=$home
echo "store: $(du -sh "$home/sessions" | cut -f1) of sessions, $(du -sh "$home/transcripts" | cut -f1) of journals in $home"

# timed runs one command line: prints "wall_ms peak_rss_kib".
timed() {
	local start end
	start=$EPOCHREALTIME
	/usr/bin/time -f %M -o "$work/rss" "$@" >"$work/out" 2>"$work/err"
	end=$EPOCHREALTIME
	awk -v s="$start" -v e="$end" -v r="$(cat "$work/rss")" 'BEGIN { printf "%.1f %d\n", (e - s) * 1000, r }'
}

rm -rf "$home/index"
read -r ms rss < <(timed "$work/chatcli" session search "deploy freeze")
echo "index built from nothing: $ms ms, peak RSS $((rss / 1024)) MiB, $(du -sh "$home/index" | cut -f1) on disk"

common=$(cd "$root" && go run ./bench/mkstore -word 0)
middling=$(cd "$root" && go run ./bench/mkstore -word 500)
rare=$(cd "$root" && go run ./bench/mkstore -word 40000)
queries=('quokkafjord' "$rare" '"deploy freeze"' "'deploy freeze -$middling'" 'ฐานข้อมูล' "$middling --role user --since 30d" "$common")
for q in "${queries[@]}"; do
	rm -f "$work/runs"
	for _ in $(seq "$RUNS"); do
		# shellcheck disable=SC2086 # the query's flags are words of their own
		eval "timed \"$work/chatcli\" session search $q" >>"$work/runs"
	done
	hits=$(grep -c . "$work/out" || true)
	sort -n "$work/runs" | awk -v n="$RUNS" -v q="$q" -v h="$hits" '
		{ ms[NR] = $1; if ($2 > peak) peak = $2 }
		END {
			med = (n % 2) ? ms[(n + 1) / 2] : (ms[n / 2] + ms[n / 2 + 1]) / 2
			printf "cold search %-32s %d runs: wall min %.1f ms, median %.1f ms, max %.1f ms; peak RSS %d MiB; %d lines\n", q, n, ms[1], med, ms[n], peak / 1024, h
		}'
done
