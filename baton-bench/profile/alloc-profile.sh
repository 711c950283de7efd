#!/usr/bin/env bash
# Where a warm turn's allocation goes: a fresh Baton (SQLite; JSON, or SSE with "sse") against the shared harness's
# mock, 2,000 warm-up turns and WARM_SECS (30) s at C (16) connections, then SECS (20) s at C connections under
# async-profiler's allocation profiler (bytes by allocation site, TLAB-sampled). Prints the bytes per turn the
# profile saw and the largest sites; OUTDIR/alloc.collapsed holds the whole profile (flame-graph collapsed stacks).
# usage: baton-bench/profile/alloc-profile.sh OUTDIR [sse]
#   needs the peer harness built (README of ../shared/perf, copied to PEERS, default /tmp/perf-peers) and its mock
#   running on 19100 with its pid in MOCK_PID; BATON_JAR defaults to baton-server/target/baton.jar (with its lib/)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
D=${1:?outdir}; SSE=${2:-}; MOCK_PID=${MOCK_PID:?pid of the running mock}
out_dir "$D"

async_profiler

start_baton -agentpath:"$AP"
lg --phase seq --warmup 2000 --n 200 > "$D/seq.json"
lg --phase conc --c "${C:-16}" --seconds "${WARM_SECS:-30}" --ramp 1 > "$D/warm.json"
$JCMD $SPID JVMTI.agent_load "$AP" "\"start,event=alloc,total\"" > "$D/agent.log"
lg --phase conc --c "${C:-16}" --seconds "${SECS:-20}" --ramp 1 > "$D/profiled.json"
$JCMD $SPID JVMTI.agent_load "$AP" "\"stop,file=$D/alloc.collapsed,collapsed,total\"" >> "$D/agent.log"
turns=$(python3 -c "import json; print(json.load(open('$D/profiled.json'))['ok'])")
kill $SPID; wait $SPID 2>/dev/null
python3 - "$D/alloc.collapsed" "$turns" <<'PY'
import sys, collections
path, turns = sys.argv[1], int(sys.argv[2])
total = 0; leaf = collections.Counter(); frames = collections.Counter()
for line in open(path):
    stack, _, n = line.rstrip().rpartition(' ')
    n = int(n); total += n
    parts = stack.split(';')
    leaf[parts[-1]] += n
    # the innermost frame of Baton's own code, or else of a library, that led to the allocation
    owner = next((f for f in reversed(parts) if f.startswith('dev/baton')), None)
    if owner: frames[owner] += n
print(f"{turns} turns profiled, {total/turns/1024:.0f} KiB allocated per turn")
print("largest allocated types:")
for k, v in leaf.most_common(15): print(f"  {v/turns/1024:7.1f} KiB  {k}")
print("innermost Baton frame above the allocation:")
for k, v in frames.most_common(25): print(f"  {v/turns/1024:7.1f} KiB  {k}")
PY
