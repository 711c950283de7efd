#!/usr/bin/env bash
# Where a turn's server CPU goes: a fresh Baton (SQLite, JSON mode, or SSE with "sse") against the shared harness's
# mock, 2,000 warm-up turns, 500 sequential turns, WARM_SECS (0) s more at 16 connections, then SECS (20) s at 16
# connections under a JFR 'profile' recording. Prints CPU per turn (the load client's /proc figures), the profiled
# window's CPU by thread group (the JIT compiler threads are a large share until the code is compiled: WARM_SECS=60
# shows the steady state), the samples by library, and allocation per turn.
# usage: baton-bench/profile/turn-profile.sh OUTDIR [sse]
#   needs the peer harness built (README of ../shared/perf, copied to PEERS, default /tmp/perf-peers) and its mock
#   running on 19100 with its pid in MOCK_PID; BATON_JAR defaults to baton-server/target/baton.jar (with its lib/)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
D=${1:?outdir}; SSE=${2:-}; MOCK_PID=${MOCK_PID:?pid of the running mock}
out_dir "$D"
start_baton
lg --phase seq --warmup 2000 --n 500 > "$D/seq.json"
[ "${WARM_SECS:-0}" -gt 0 ] && lg --phase conc --c 16 --seconds "$WARM_SECS" --ramp 1 > "$D/warm.json"
python3 "$here/thread-cpu.py" $SPID snapshot "$D/threads0.json"
$JCMD $SPID JFR.start name=turns settings=profile filename="$D/rec.jfr" > /dev/null
lg --phase conc --c 16 --seconds ${SECS:-20} --ramp 1 > "$D/c16.json"
$JCMD $SPID JFR.stop name=turns > /dev/null
python3 "$here/thread-cpu.py" $SPID diff "$D/threads0.json" "$(python3 -c "import json; print(json.load(open('$D/c16.json'))['ok'])")" > "$D/threads.txt"
kill $SPID; wait $SPID 2>/dev/null
# jfr print cuts stacks to 5 frames unless told otherwise
$JDK/bin/jfr print --json --stack-depth 300 --events jdk.ExecutionSample "$D/rec.jfr" > "$D/samples.json"
python3 -c "import json,sys; [print(p, json.load(open(f'$D/{p}.json'))['cpuMsPerTurn']['server'], 'ms server CPU per turn') for p in ('seq','c16')]"
cat "$D/threads.txt"
python3 "$here/jfr-buckets.py" "$D/samples.json"
python3 "$here/jfr-alloc.py" "$D/rec.jfr" "$D/c16.json" "$JDK/bin/jfr"
