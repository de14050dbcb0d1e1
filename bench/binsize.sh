#!/usr/bin/env bash
# binsize.sh checks the size budget of Markdown rendering: the stripped
# chatcli binary (go build -trimpath -ldflags='-s -w') of the working tree
# may be at most BUDGET_BYTES (default 6000000, 6 MB) larger than that of
# BASE, a git revision before internal/render's Markdown (goldmark,
# chroma) was linked in. It prints both sizes and the difference and exits
# 1 when the budget is exceeded. (glamour, measured the same way, added
# 42 MB: its text/template use keeps every exported SDK method.)
#
# Run from the repository root:
#
#   bench/binsize.sh                  # BASE is the last commit before rendering
#   bench/binsize.sh <revision>
#   BUDGET_BYTES=5000000 bench/binsize.sh
#
# Needs: go, git, tar.
set -euo pipefail

BASE=${1:-2e890e3d811b33b6a0a4834eb3198788b7e2e074}
BUDGET_BYTES=${BUDGET_BYTES:-6000000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/base"
git -C "$root" archive "$BASE" | tar -x -C "$work/base"
build() { (cd "$1" && go build -trimpath -ldflags='-s -w' -o "$2" ./cmd/chatcli); }
build "$work/base" "$work/chatcli-base"
build "$root" "$work/chatcli-now"
base=$(stat -c %s "$work/chatcli-base")
now=$(stat -c %s "$work/chatcli-now")
echo "stripped binary: base $base bytes, now $now bytes, +$((now - base)) (budget +$BUDGET_BYTES)"
if (( now - base > BUDGET_BYTES )); then
  echo "over the budget" >&2
  exit 1
fi
