#!/usr/bin/env bash
# Two or more builds alternated, each measured once warm: a fresh Baton (SQLite; SSE with SSE=sse) against the harness's
# mock, 1,000 warm-up and 500 sequential turns, WARM (30) s at C (16) connections, then SECS (20) s at C connections
# measured. Prints one line per run: sequential p50 and CPU per turn, then CPU per turn and turns/s warming and measured.
# ab-matrix.sh compares builds in the harness's own phases, which end while the JIT is still compiling ("The JIT's
# share of the harness's windows" in baton-bench/README.md); this compares them past most of that.
# usage: baton-bench/profile/ab-warm.sh OUTDIR ROUNDS NAME=JAR NAME=JAR ...   (each jar copied away with its lib/)
#   OPTS_NAME gives one build extra JVM options: OPTS_floor=-Xms512m ab-warm.sh OUT 2 plain=JAR floor=JAR
#   DB=postgres: on PostgreSQL (a fresh perf_baton per run), PostgreSQL's CPU per turn printed too
#   needs the peer harness built (README of ../shared/perf, copied to PEERS, default /tmp/perf-peers) and its mock
#   running on 19100 with its pid in MOCK_PID
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
root_out=${1:?outdir}; rounds=${2:?rounds}; shift 2
[ $# -ge 2 ] || { echo "ab-warm: give at least two NAME=JAR builds" >&2; exit 2; }
SSE=${SSE:-}; MOCK_PID=${MOCK_PID:?pid of the running mock}
for r in $(seq 1 "$rounds"); do
  for build in "$@"; do
    name=${build%%=*}; JAR=${build#*=}
    out_dir "$root_out/$name-$r"
    opts="OPTS_$name"
    # shellcheck disable=SC2086  # JVM options, one word each
    start_baton ${!opts:-}
    lg --phase seq --warmup 1000 --n 500 > "$D/seq.json"
    lg --phase conc --c "${C:-16}" --seconds "${WARM:-30}" --ramp 1 > "$D/warm.json"
    lg --phase conc --c "${C:-16}" --seconds "${SECS:-20}" --ramp 1 > "$D/c16.json"
    kill $SPID; wait $SPID 2>/dev/null
    python3 - "$D" "$name" "$r" <<'PY'
import json, os, sys
d, name, r = sys.argv[1:]
s, w, c = (json.load(open(f"{d}/{p}.json")) for p in ("seq", "warm", "c16"))
print(f"{name} round {r}: sequential p50 {s['p50ms']:.2f} ms, {s['cpuMsPerTurn']['server']:.2f} ms CPU/turn"
      f" | warming {w['cpuMsPerTurn']['server']:.2f} ms/turn, {w['turnsPerSec']:.0f} turns/s"
      f" | c{os.environ.get('C', '16')} {c['cpuMsPerTurn']['server']:.2f} ms/turn, {c['turnsPerSec']:.0f} turns/s,"
      f" other work {c['cpuSeconds']['others'] / c['seconds']:.2f} cores"
      + (f", PostgreSQL {c['cpuMsPerTurn']['postgres']:.2f} ms/turn" if 'postgres' in c['cpuMsPerTurn'] else ""))
PY
  done
done
