#!/usr/bin/env bash
# What each SQL statement of a turn costs PostgreSQL, from pg_stat_statements: calls, execution time (lock waits
# included), planning time and how often the statement was planned, rows. The machine's PostgreSQL does not load the
# extension, so this starts a private cluster with it (initdb in OUTDIR/pg, port PGPORT, default 5433, as the
# postgres user), runs a fresh Baton on it against the shared harness's mock (1,000 warm-up and 500 sequential
# turns, 30 s at C connections), resets the statistics, measures SECS (20) s at C (default 16) connections, prints
# the statements by execution time and stops the cluster.
# usage: baton-bench/profile/pg-statements.sh OUTDIR
#   needs root (to run initdb as postgres), PostgreSQL 15's binaries under /usr/lib/postgresql/15/bin (PG_BIN), the
#   harness's mock on 19100 with its pid in MOCK_PID; BATON_JAR defaults to baton-server/target/baton.jar
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/baton-under-load.sh"
D=${1:?outdir}; SSE=""; MOCK_PID=${MOCK_PID:?pid of the running mock}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}; PGPORT=${PGPORT:-5433}; C=${C:-16}
out_dir "$D"
rm -rf "$D/pg"; mkdir -p "$D/pg"
chown postgres "$D/pg" || { echo "pg-statements: run as root (initdb runs as postgres)" >&2; exit 1; }

su postgres -c "$PG_BIN/initdb -D $D/pg/data -A trust -U postgres" > "$D/initdb.log" 2>&1 \
  || { echo "pg-statements: initdb failed, see $D/initdb.log" >&2; exit 1; }
cat >> "$D/pg/data/postgresql.conf" <<CONF
port = $PGPORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$D/pg'
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
pg_stat_statements.track_planning = on
CONF
su postgres -c "$PG_BIN/pg_ctl -D $D/pg/data -l $D/pg/server.log -w start" > /dev/null \
  || { echo "pg-statements: the cluster did not start, see $D/pg/server.log" >&2; exit 1; }
trap 'su postgres -c "$PG_BIN/pg_ctl -D $D/pg/data -m fast stop" > /dev/null' EXIT
PSQL="psql -h 127.0.0.1 -p $PGPORT -U postgres -At"
$PSQL -d postgres -c "create database perf_stat" > /dev/null
$PSQL -d perf_stat -c "create extension pg_stat_statements" > /dev/null

export BATON_DB_URL="jdbc:postgresql://127.0.0.1:$PGPORT/perf_stat?user=postgres"
start_baton
lg --phase seq --warmup 1000 --n 500 > "$D/seq.json"
lg --phase conc --c "$C" --seconds 30 --ramp 1 > "$D/warm.json"
$PSQL -d perf_stat -c "select pg_stat_statements_reset()" > /dev/null
lg --phase conc --c "$C" --seconds "${SECS:-20}" --ramp 1 > "$D/conc.json"
turns=$(python3 -c "import json; print(json.load(open('$D/conc.json'))['ok'])")
$PSQL -d perf_stat -F ' | ' -c "select round(calls::numeric / $turns, 2), round((total_exec_time / greatest(calls, 1))::numeric, 3),
    round((total_plan_time / $turns)::numeric, 3), round(plans::numeric / greatest(calls, 1), 2),
    left(regexp_replace(query, '\s+', ' ', 'g'), 110)
  from pg_stat_statements where query not like '%pg_stat_statements%' order by total_exec_time desc limit 25" > "$D/statements.txt"
kill $SPID; wait $SPID 2>/dev/null
echo "$turns turns at c$C; per statement: calls per turn | ms per call (execution, lock waits included) | planning ms per turn | plans per call | statement"
cat "$D/statements.txt"
