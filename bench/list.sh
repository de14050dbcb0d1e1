#!/usr/bin/env bash
# list.sh times `chatcli session list` in a fresh process, start-up
# included, over a store of 2,000 sessions of 5 MB written by chatcli's
# conversation engine (bench.EngineStore: one session grown by 40 turns,
# with its journal and 20 checkpoints, hard-linked 2,000 times, so the
# disk holds 5 MB).
#
# Run from the repository root:
#
#   bench/list.sh                    # 20 timed runs after 2 untimed ones
#   RUNS=50 WARMUP=5 bench/list.sh
#   BENCH_HOME=/tmp/store bench/list.sh   # build the store there once, keep it, reuse it
#   BENCH_TIMER='hyperfine --' bench/list.sh
#
# BENCH_TIMER, when set, is a timing command the listing's command line is
# appended to (CHATCLI_HOME is exported); it replaces the timing below.
# Without it, each run's wall time is read from bash's EPOCHREALTIME around
# /usr/bin/time (GNU time, which gives the peak memory), and min, median and
# max are printed in milliseconds.
#
# Needs: go, bash 5, GNU time at /usr/bin/time.
set -euo pipefail

RUNS=${RUNS:-20}
WARMUP=${WARMUP:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/chatcli" "$root/cmd/chatcli"

home=${BENCH_HOME:-$work/home}
if [ ! -e "$home/sessions/engine-0000.json" ]; then
	(cd "$root" && go run ./bench/mkstore -home "$home" -n 2000)
fi
export CHATCLI_HOME=$home

listing=("$work/chatcli" session list)
"${listing[@]}" >"$work/out"
head -3 "$work/out"
echo "sessions listed: $(($(wc -l <"$work/out") - 1))"

if [ -n "${BENCH_TIMER:-}" ]; then
	# shellcheck disable=SC2086 # the timer's own words
	$BENCH_TIMER "${listing[@]}"
	exit
fi

for _ in $(seq "$WARMUP"); do "${listing[@]}" >/dev/null; done
for _ in $(seq "$RUNS"); do
	start=$EPOCHREALTIME
	/usr/bin/time -f %M -o "$work/rss" "${listing[@]}" >/dev/null
	end=$EPOCHREALTIME
	echo "$start $end $(cat "$work/rss")" >>"$work/runs"
done
awk '{ printf "%.3f %d\n", ($2 - $1) * 1000, $3 }' "$work/runs" | sort -n >"$work/sorted"
awk -v n="$RUNS" '
	{ ms[NR] = $1; if ($2 > peak) peak = $2 }
	END {
		med = (n % 2) ? ms[(n + 1) / 2] : (ms[n / 2] + ms[n / 2 + 1]) / 2
		printf "chatcli session list, %d runs: wall min %.1f ms, median %.1f ms, max %.1f ms; peak RSS %d KiB\n", n, ms[1], med, ms[n], peak
	}' "$work/sorted"
