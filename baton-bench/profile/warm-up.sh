#!/usr/bin/env bash
# How a fresh server's CPU per turn falls while the JIT compiles: a fresh Baton (SQLite; SSE with "sse") against the
# harness's mock, 2,000 warm-up and 500 sequential turns, then WINDOWS (6) windows of 15 s at 16 connections, each
# with its server CPU per turn, and the JIT's compilations per 15 s of the server's life (-XX:+PrintCompilation).
# usage: baton-bench/profile/warm-up.sh OUTDIR [sse]
#   needs the peer harness built (README of ../shared/perf, copied to PEERS, default /tmp/perf-peers) and its mock
#   running on 19100 with its pid in MOCK_PID; BATON_JAR defaults to baton-server/target/baton.jar (with its lib/)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
D=${1:?outdir}; SSE=${2:-}; MOCK_PID=${MOCK_PID:?pid of the running mock}
out_dir "$D"

start_baton -XX:+PrintCompilation
lg --phase seq --warmup 2000 --n 500 > "$D/seq.json"
for i in $(seq 1 "${WINDOWS:-6}"); do
  lg --phase conc --c 16 --seconds 15 --ramp 1 > "$D/c16-$i.json"
done
kill $SPID; wait $SPID 2>/dev/null
for i in $(seq 1 "${WINDOWS:-6}"); do
  python3 -c "import json; d=json.load(open('$D/c16-$i.json')); print('window $i: %.2f ms server CPU per turn, %d turns' % (d['cpuMsPerTurn']['server'], d['ok']))"
done
# PrintCompilation lines: uptime ms, compile id, flags, tier, method; "made not entrant" marks code thrown away
python3 - "$D/run/server.log" <<'PY'
import collections, re, sys
compiled, dropped = collections.Counter(), collections.Counter()
line_re = re.compile(r'\s*(\d+)\s+\d+\s+[%sbn!* ]{0,6}\s*(\d)\s+\S+')
for line in open(sys.argv[1], errors="replace"):
    m = line_re.match(line)
    if not m:
        continue
    window, tier = int(m.group(1)) // 15000, m.group(2)
    (dropped if "made not entrant" in line else compiled)[(window, tier)] += 1
last = max((w for w, _ in compiled), default=-1)
print("seconds since start | compiled at tier 1 2 3 4 | thrown away at tier 3 4")
for w in range(last + 1):
    print(f"{w * 15:>4}-{w * 15 + 15:<4} | {[compiled[(w, t)] for t in '1234']} | {[dropped[(w, t)] for t in '34']}")
PY
