#!/usr/bin/env bash
# Builds baton-bench and runs the benchmarks. Not part of the test suite (./baton test only compiles them).
#   baton-bench/run.sh                      every JMH benchmark, then the SQL statements-per-turn count
#   baton-bench/run.sh statements [T N...]  only the statement count: T turns (default 20) at each history N (10 10000)
#   baton-bench/run.sh roundtrips [--durable] [--list] [T]  round trips to PostgreSQL (127.0.0.1:5432) per turn, over T
#                                           turns (20); --durable: durable turns on; --list: one more turn, round trip by round trip
#   baton-bench/run.sh burst [N [Q]]         N connections at once (2000) against a server with accept queue Q (default)
#   baton-bench/run.sh soak [M [S [C]]]      M minutes (30) of steady turns from C clients (4), heap after GC every S s (60)
#   baton-bench/run.sh stalled [C [S [D [H [K]]]]]  C clients (8) that stop reading, S s per phase (60), deadline D s (10),
#                                           heap H (512m), answers of K KB (15000)
#   baton-bench/run.sh streams [N [R [W [T [C]]]]] N SSE streams (10000) opened at R/s (250), W words (18) at T tokens/s
#                                           (1), over HTTP/1.1 (C 0, a socket per stream) or h2c on C connections
#   baton-bench/run.sh connections [C [L [S]]]  C clients (200) of tool turns, the model waiting L ms (500) per answer, S s (20):
#                                           database connections lent out vs turns open
#   baton-bench/run.sh openai-statements [T] SQL statements per text turn through the OpenAI door vs /v1 (T turns, 20)
#   baton-bench/run.sh felt [T [U [S [DB [R [W]]]]]]  user-felt latency: added first token, token gap and p99 over T turns (300), after W warm-up turns (3000)
#                                           against a U ms upstream (20); sustained turns/s, S s a step (10), on DB
#                                           (sqlite|postgres) from R turns/s (50)
#   baton-bench/run.sh alloc [T]             bytes allocated and CPU per tool turn over T turns (2000), whole process
#   baton-bench/run.sh crash [T] [--clients C] [--kills K] [--instances N] [--seed S] [--db postgres|sqlite] [--haproxy]
#                                           durable turns under SIGKILL: T turns (300) from C clients (8) against N
#                                           baton serve processes (2) on PostgreSQL + Redis (or one on SQLite, restarted),
#                                           K random kills (T/10); checks the database's invariants, non-zero exit if any broke
#   baton-bench/run.sh <JMH args>           only JMH, e.g. "TurnLatencyBench -p history=10000" or "-h"
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
. "$root/scripts/find-jdk.sh"

echo "baton-bench: building with $(basename "$JAVA_HOME")..." >&2
# package, not verify: no ITs, no format check; maven.test.skip: no test compilation either (nor failsafe, which
# since 3.6 ignores -DskipTests)
(cd "$root" && ./mvnw -q -B -pl baton-bench -am package -Dmaven.test.skip=true) >&2

# The checkout is shared and other builds rewrite the sibling modules' jars at any time: run on copies.
snapshot="$here/target/bench-lib"
rm -rf "$snapshot" && mkdir -p "$snapshot"
cp="$here/target/classes"
IFS=: read -ra entries < "$here/target/bench-classpath.txt" || true  # no final newline
for entry in "${entries[@]}"; do
  case "$entry" in
    "$root"/*) cp "$entry" "$snapshot/" && cp="$cp:$snapshot/$(basename "$entry")" ;;
    *) cp="$cp:$entry" ;;
  esac
done
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -DBATON_LOG_LEVEL=WARN)
# from the repository root: the MCP benchmarks install their npm peers under baton-bench/target/npm
cd "$root"
# JMH 1.37 reads fields through sun.misc.Unsafe; JDK 24+ warns about it unless told it is allowed
[ "$(baton_java_major "$JAVA_HOME")" -ge 24 ] && java+=(--sun-misc-unsafe-memory-access=allow)
# BENCH_GROUP_COMMIT=false: the benchmark server commits each SQLite write alone (database.groupCommit)
[ -n "${BENCH_GROUP_COMMIT:-}" ] && java+=(-Dbench.groupCommit="$BENCH_GROUP_COMMIT")
java+=(-cp "$cp")

statements() {
  "${java[@]}" dev.baton.bench.StatementsPerTurn "$@"
}

case "${1:-}" in
  openai-statements)
    shift
    "${java[@]}" dev.baton.bench.OpenAiDoorStatements "$@"
    ;;
  crash)
    shift
    "${java[@]}" dev.baton.bench.CrashDrill "$@"
    ;;
  alloc)
    shift
    "${java[@]}" dev.baton.bench.TurnAllocation "$@"
    ;;
  felt)
    shift
    "${java[@]}" dev.baton.bench.UserFeltLatency "$@"
    ;;
  burst)
    shift
    "${java[@]}" dev.baton.bench.ConnectBurst "$@"
    ;;
  connections)
    shift
    "${java[@]}" dev.baton.bench.ConnectionsUnderLoad "$@"
    ;;
  soak)
    shift
    "${java[@]}" -Xmx512m dev.baton.bench.Soak "$@"
    ;;
  stalled)
    shift
    "${java[@]}" dev.baton.bench.StalledStreams "$@"
    ;;
  streams)
    shift
    # a stream is a socket in the server for its model call, and one more for its client over HTTP/1.1 (not over h2c,
    # where the streams share C connections); the load client holds the client's end, the simulator the model call's
    ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
    "${java[@]}" dev.baton.bench.ManyStreams "$@"
    ;;
  statements)
    shift
    statements "$@"
    ;;
  roundtrips)
    shift
    "${java[@]}" dev.baton.bench.PostgresRoundTrips "$@"
    ;;
  "")
    "${java[@]}" org.openjdk.jmh.Main
    statements
    ;;
  *)
    "${java[@]}" org.openjdk.jmh.Main "$@"
    ;;
esac
