# Sourced by the profile scripts: the JDK, the peer harness, the jar under test (BATON_JAR, else the build's), a fresh
# Baton against the harness's mock, and lg, the harness's load client aimed at it.
#   out_dir DIR sets D, the output folder (absolute), with an empty run/ in it;
#   start_baton [extra JVM options...] needs D, SSE ("sse" or empty) and MOCK_PID set; it sets SPID and lg. With
#     DB=postgres the server runs on a fresh database perf_baton at 127.0.0.1:5432 (as the harness's baton-pg), and
#     lg also reports PostgreSQL's CPU per turn
#   async_profiler sets AP, async-profiler's native library (fetched from Maven Central at the parent POM's version)
JDK=${PERF_JAVA_HOME:-$(ls -d /usr/lib/jvm/temurin-2[5-9]* 2>/dev/null | head -1)}; J=$JDK/bin/java; JCMD=$JDK/bin/jcmd
P=${PEERS:-/tmp/perf-peers}; H=$P/harness/target/harness.jar
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
JAR=${BATON_JAR:-$root/baton-server/target/baton.jar}

out_dir() {
  mkdir -p "$1"; D="$(cd "$1" && pwd)"; rm -rf "$D/run"; mkdir -p "$D/run"
}

start_baton() {
  TOKEN=$($J --enable-native-access=ALL-UNNAMED -jar "$JAR" token --config $P/baton/baton.yaml --user alice --ttl 12h \
    2>/dev/null)
  local env=() pgdb=""
  if [ "${DB:-sqlite}" = postgres ]; then
    psql -q -h 127.0.0.1 -U postgres -d test -c 'drop database if exists perf_baton' -c 'create database perf_baton' \
      >/dev/null
    env+=("BATON_DB_URL=jdbc:postgresql://127.0.0.1:5432/perf_baton?user=postgres"); pgdb="--pgdb perf_baton"
  fi
  (cd "$D/run" && exec env "${env[@]}" $J -Xmx1g "$@" --enable-native-access=ALL-UNNAMED -jar "$JAR" serve \
     --host 127.0.0.1 --config $P/baton/baton.yaml > server.log 2>&1) &
  SPID=$!
  for i in $(seq 1 600); do curl -s -o /dev/null --max-time 1 http://127.0.0.1:19101/healthz && break; sleep 0.1; done
  LG="--target baton --token $TOKEN --base http://127.0.0.1:19101 --pids server=$SPID,mock=$MOCK_PID $pgdb"
  [ "$SSE" = sse ] && LG="$LG --sse"
}

lg() { $J -Xmx256m -XX:+UseSerialGC -cp $H perf.LoadGen $LG "$@"; }

async_profiler() {
  local version ap_dir
  version=$(sed -n 's:.*<async-profiler.version>\(.*\)</async-profiler.version>.*:\1:p' "$root/pom.xml")
  ap_dir="$root/baton-bench/target/async-profiler-$version"
  AP="$ap_dir/linux-x64/libasyncProfiler.so"
  [ -f "$AP" ] && return 0
  (cd "$root" && ./mvnw -q -B dependency:copy -Dartifact="tools.profiler:async-profiler:$version:jar:linux-x64" \
     -DoutputDirectory="$ap_dir") || { echo "could not fetch async-profiler $version" >&2; exit 1; }
  (cd "$ap_dir" && unzip -q -o "async-profiler-$version-linux-x64.jar")
}
