# Sourced by ./baton and .ci/run: exports JAVA_HOME pointing at a JDK >= 21, or exits with a clear message.
# Looks at $JAVA_HOME, then the `java` on PATH, then the usual install folders.

baton_java_major() {
  # prints the major version of the JDK at $1 (a JAVA_HOME), or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -1
}

baton_find_jdk() {
  local candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  local dir
  for dir in /usr/lib/jvm/* /usr/local/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$dir" ] && candidates+=("$dir")
  done
  local best="" best_major=0 major
  for dir in "${candidates[@]}"; do
    major=$(baton_java_major "$dir")
    [ -n "$major" ] || continue
    # prefer the first JDK >= 21 in the order above, so an explicit JAVA_HOME wins
    if [ "$major" -ge 21 ] && [ -z "$best" ]; then best="$dir"; best_major=$major; fi
  done
  if [ -z "$best" ]; then
    echo "baton: no JDK 21 or newer found (looked at JAVA_HOME, the java on PATH and /usr/lib/jvm)." >&2
    echo "baton: install one (for example Temurin 21 or 25) and set JAVA_HOME to it." >&2
    exit 1
  fi
  export JAVA_HOME="$best"
  export PATH="$JAVA_HOME/bin:$PATH"
}

baton_find_jdk
