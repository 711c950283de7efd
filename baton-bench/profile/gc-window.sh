#!/usr/bin/env bash
# A turn's server CPU by thread group and the collector's work, with no profiler attached: a fresh Baton (SQLite)
# against the shared harness's mock, 2,000 warm-up and 500 sequential turns, WARM_SECS (60) s at 16 connections,
# then SECS (20) s at 16 connections measured by thread group (thread-cpu.py), G1's log in OUTDIR/gc.log and the
# live heap's largest classes in OUTDIR/histo.txt.
# usage: baton-bench/profile/gc-window.sh OUTDIR [CONFIG]
#   CONFIG defaults to the harness's baton.yaml; needs the harness's mock on 19100 with its pid in MOCK_PID
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
D=${1:?outdir}; SSE=""; MOCK_PID=${MOCK_PID:?pid of the running mock}
CONFIG=${2:-$P/baton/baton.yaml}
out_dir "$D"

TOKEN=$($J --enable-native-access=ALL-UNNAMED -jar "$JAR" token --config "$CONFIG" --user alice --ttl 12h 2>/dev/null)
(cd "$D/run" && exec $J -Xmx1g -Xlog:gc:file="$D/gc.log" --enable-native-access=ALL-UNNAMED -jar "$JAR" serve \
   --host 127.0.0.1 --config "$CONFIG" > server.log 2>&1) &
SPID=$!
for i in $(seq 1 600); do curl -s -o /dev/null --max-time 1 http://127.0.0.1:19101/healthz && break; sleep 0.1; done
LG="--target baton --token $TOKEN --base http://127.0.0.1:19101 --pids server=$SPID,mock=$MOCK_PID"

lg --phase seq --warmup 2000 --n 500 > "$D/seq.json"
lg --phase conc --c 16 --seconds "${WARM_SECS:-60}" --ramp 1 > "$D/warm.json"
python3 "$here/thread-cpu.py" $SPID snapshot "$D/threads0.json"
cycles0=$(grep -c "Concurrent Mark Cycle" "$D/gc.log")
lg --phase conc --c 16 --seconds "${SECS:-20}" --ramp 1 > "$D/c16.json"
turns=$(python3 -c "import json; print(json.load(open('$D/c16.json'))['ok'])")
python3 "$here/thread-cpu.py" $SPID diff "$D/threads0.json" "$turns"
cycles=$(( $(grep -c "Concurrent Mark Cycle" "$D/gc.log") - cycles0 ))
$JCMD $SPID GC.class_histogram | head -25 > "$D/histo.txt"
kill $SPID; wait $SPID 2>/dev/null
echo "G1 concurrent mark cycles in the measured window: $cycles (whole run: $(grep -c "Concurrent Mark Cycle" "$D/gc.log"))"
python3 -c "import json; d=json.load(open('$D/c16.json')); print(d['turnsPerSec'], 'turns/s;', d['cpuMsPerTurn']['server'], 'ms server CPU per turn')"
