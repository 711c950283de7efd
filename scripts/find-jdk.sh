# Sourced by ./baton and .ci/run: exports JAVA_HOME pointing at a JDK >= 21, or exits with a clear message.
# Looks at $JAVA_HOME, then the `java` on PATH, then the usual install folders, and takes the first JDK 21+.

baton_java_major() {
  # prints the major version of the JDK at $1 (a JAVA_HOME), or nothing
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
  local version=""
  # every JDK since 9 ships a release file: reading it costs nothing, starting a JVM costs a tenth of a second
  if [ -f "$1/release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release" | head -1)
  fi
  if [ -z "$version" ]; then
    version=$("$1/bin/java" -XshowSettings:properties -version 2>&1 \
      | sed -n 's/^ *java\.specification\.version = \(.*\)$/\1/p' | head -1)
  fi
  version=${version#1.}   # 1.8 -> 8
  version=${version%%[!0-9]*}
  [ -n "$version" ] && echo "$version"
  return 0
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
  local best="" major
  for dir in "${candidates[@]}"; do
    major=$(baton_java_major "$dir")
    # the first JDK >= 21 in the order above, so an explicit JAVA_HOME wins
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then best="$dir"; break; fi
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
