#!/usr/bin/env bash
# Issue 25's acceptance series, before and after in one sitting, on a quiet machine (nothing else
# running: the figures are the server's and its bots' only):
#   - 2,000 six-player rooms (12,000 clients), human pace, 60-s window: 5 runs of "before" back to
#     back, then 5 of "after" (the p99 of each of five back-to-back runs is the criterion);
#   - 50 rooms at full speed, 30-s window: before and after alternated, 3 runs each.
# Each tree is extracted from git into a scratch directory and run with its own harness (its bots
# decode its state), or with CLIENTS=lean against this checkout's lean bots; the "after" runs keep a per-second timeline (loadtest/tailReport.ts).
#
#   bash loadtest/finalSeries.sh BEFORE_REV [AFTER_REV]        # AFTER_REV defaults to main
#   ROOMS=20 RUNS=1 WINDOW=10 FAST_ROOMS=5 FAST_RUNS=1 bash loadtest/finalSeries.sh BEFORE_REV   # a small trial
#   CLIENTS=lean bash loadtest/finalSeries.sh BEFORE_REV   # this checkout's lean bots against both servers
#                                                          # (the decoding bots need a core at 2,000 rooms)
#   PIN=1 CLIENTS=lean bash loadtest/finalSeries.sh BEFORE_REV   # the server on CPU 0, the bots on CPU 1 (run.ts --pin)
#
# Prints the two tables (a row per run, then medians: p99 of each run and how many are ≤ 30 ms,
# CPU per action, RSS and live heap per room, errors) and writes everything to $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE=${1:?usage: bash loadtest/finalSeries.sh BEFORE_REV [AFTER_REV]}
AFTER=${2:-main}
ROOMS=${ROOMS:-2000}
RUNS=${RUNS:-5}
WINDOW=${WINDOW:-60}
FAST_ROOMS=${FAST_ROOMS:-50}
FAST_RUNS=${FAST_RUNS:-3}
CLIENTS=${CLIENTS:-decoding}
# Older trees' harnesses know no --clients: the lean bots are this checkout's, run against each tree's server.
HARNESS=()
LEAN=()
if [ "$CLIENTS" = lean ]; then HARNESS=(--harness here); LEAN=(--clients lean); fi
# --pin is this checkout's flag: with PIN=1 the runs use this checkout's harness too.
if [ "${PIN:-0}" = 1 ]; then HARNESS=(--harness here); LEAN+=(--pin); fi
OUT=${OUT:-${TMPDIR:-/tmp}/issue25-series-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$OUT"

echo "issue 25 series: before $(git rev-parse --short "$BEFORE^{commit}") ($BEFORE), after $(git rev-parse --short "$AFTER^{commit}") ($AFTER); output in $OUT"
echo "clients: $CLIENTS, pinned: ${PIN:-0}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), node $(node --version), open files $(ulimit -n), load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M) UTC"
needed=$((ROOMS * 6 + 400))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$needed" ]; then
  echo "the open-file limit $(ulimit -n) cannot hold $((ROOMS * 6)) clients: ulimit -n $needed first" >&2
  exit 2
fi

npx tsx loadtest/compare.ts --a "$BEFORE" --b "$AFTER" --label-a before --label-b after \
  --runs "$RUNS" --order blocks --timeline "${HARNESS[@]}" --out "$OUT/human" -- --rooms "$ROOMS" --seconds "$WINDOW" "${LEAN[@]}" >/dev/null
npx tsx loadtest/compare.ts --a "$BEFORE" --b "$AFTER" --label-a before --label-b after \
  --runs "$FAST_RUNS" --order alternate "${HARNESS[@]}" --out "$OUT/fast" -- --rooms "$FAST_ROOMS" --seconds 30 --pace fast "${LEAN[@]}" >/dev/null

echo
echo "## $ROOMS rooms, human pace, ${WINDOW}-s windows, $RUNS runs each back to back"
echo
cat "$OUT/human/table.md"
echo
echo "## $FAST_ROOMS rooms, full speed, 30-s windows, $FAST_RUNS runs each alternated"
echo
cat "$OUT/fast/table.md"
echo
echo "## Where the slow seconds of the \"after\" runs came from (loadtest/tailReport.ts)"
for timeline in "$OUT"/human/*-after.timeline.jsonl; do
  [ -e "$timeline" ] || continue
  echo
  echo "### $(basename "$timeline")"
  npx tsx loadtest/tailReport.ts "$timeline" | sed -n '/^slow seconds by/,$p'
done
