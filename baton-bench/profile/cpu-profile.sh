#!/usr/bin/env bash
# Where a turn's server CPU goes, every thread and native code included: a fresh Baton (SQLite; JSON, or SSE with
# "sse") against the shared harness's mock: 2,000 warm-up turns, 500 sequential turns, WARM_SECS (45) s at 16
# connections, then SECS (20) s at 16 connections under async-profiler (CPU time by interval timer, every thread).
# JFR's execution samples (turn-profile.sh) see Java frames only: they miss SQLite's native code and the JIT
# compiler threads, which this shows.
# usage: baton-bench/profile/cpu-profile.sh OUTDIR [sse]
#   needs the peer harness built (README of ../shared/perf, copied to PEERS, default /tmp/perf-peers) and its mock
#   running on 19100 with its pid in MOCK_PID; C (16) sets the profiled connections; BATON_JAR defaults to baton-server/target/baton.jar (with its lib/)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
D=${1:?outdir}; SSE=${2:-}; MOCK_PID=${MOCK_PID:?pid of the running mock}
out_dir "$D"

async_profiler

start_baton -agentpath:"$AP"
lg --phase seq --warmup 2000 --n 500 > "$D/seq.json"
lg --phase conc --c 16 --seconds "${WARM_SECS:-45}" --ramp 1 > "$D/warm.json"
python3 "$here/thread-cpu.py" $SPID snapshot "$D/threads0.json"
# jcmd reads "a=b" as a named argument of its own: the agent's options go in quotes
$JCMD $SPID JVMTI.agent_load "$AP" "\"start,event=itimer,interval=1ms,threads\"" > "$D/agent.log"
lg --phase conc --c "${C:-16}" --seconds "${SECS:-20}" --ramp 1 > "$D/c16.json"
$JCMD $SPID JVMTI.agent_load "$AP" "\"stop,file=$D/profile.collapsed,collapsed\"" >> "$D/agent.log"
turns=$(python3 -c "import json; print(json.load(open('$D/c16.json'))['ok'])")
python3 "$here/thread-cpu.py" $SPID diff "$D/threads0.json" "$turns"
kill $SPID; wait $SPID 2>/dev/null
python3 -c "import json; [print(p, json.load(open(f'$D/{p}.json'))['cpuMsPerTurn']['server'], 'ms server CPU per turn') for p in ('seq','c16')]"
python3 "$here/collapsed-buckets.py" "$D/profile.collapsed"
