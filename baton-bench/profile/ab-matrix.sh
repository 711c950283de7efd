#!/usr/bin/env bash
# Two Baton builds side by side in the peer harness, alternated so the machine's drift hits both alike: for each of N
# rounds, run-matrix.sh once per build and system, then one line per build, system and concurrency with turns/s and
# CPU ms per turn by process.
# usage: baton-bench/profile/ab-matrix.sh BEFORE_JAR AFTER_JAR OUTDIR [N (2)] [SYSTEMS ("baton-pg baton-json")]
#   each jar with its lib/ beside it (copy baton-server/target/baton.jar and lib/ away before rebuilding); needs the
#   peer harness built (README of ../shared/perf, copied to PEERS, default /tmp/perf-peers); SEQ_N (500) and CONC_S
#   (15) as run-matrix.sh takes them
set -euo pipefail
BEFORE=${1:?jar before}; AFTER=${2:?jar after}; OUT=${3:?outdir}; N=${4:-2}; SYSTEMS=${5:-"baton-pg baton-json"}
P=${PEERS:-/tmp/perf-peers}
mkdir -p "$OUT"
for i in $(seq 1 "$N"); do
  for build in before after; do
    jar=$BEFORE; [ "$build" = after ] && jar=$AFTER
    dir="$OUT/$build-$i"
    BATON_JAR="$jar" ROUNDS=1 SEQ_N=${SEQ_N:-500} CONC_S=${CONC_S:-15} "$P/harness/run-matrix.sh" "$dir" 1 "$SYSTEMS" \
      > "$dir.log" 2>&1
    python3 - "$dir/results.jsonl" "$build" "$i" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get('phase') == 'conc':
        print(sys.argv[2], sys.argv[3], r['system'], 'c%d' % r['c'], '%.0f turns/s' % r['turnsPerSec'], r['cpuMsPerTurn'])
PY
  done
done
