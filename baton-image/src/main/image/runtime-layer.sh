#!/usr/bin/env bash
# Lays out the image's own files (the last layer Jib adds) in $1:
#   /data and /tmp, writable by the image's user (Jib sets every file's owner to root, so the mode does it);
#   with a base of `scratch` ($2), also the Java runtime: a jlink image of the JDK that runs this build, at
#   /opt/java/openjdk (where the Temurin images keep theirs, so the entry point is the same on either base), the
#   C libraries it links against, copied from this machine, and an /etc/passwd naming the image's user.
# The runtime is made again only when the JDK or the module list changed (a stamp beside $1): jlink takes seconds.
set -euo pipefail
out=$1
base=$2
# what baton.jar and its libraries use (jdeps --print-module-deps over target/lib), plus what is reached only
# through services or reflection: elliptic-curve TLS, zip file systems, the JDK's extra charsets
modules=java.base,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,java.scripting
modules=$modules,java.security.jgss,java.sql,java.xml,jdk.charsets,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.unsupported
modules=$modules,jdk.zipfs
uid=65532

mkdir -p "$out/data" "$out/tmp"
stamp="$out.stamp"
if [ "$base" != scratch ]; then
  # the base brings its own Java and users
  rm -rf "$out/opt" "$out/lib" "$out/lib64" "$out/etc" "$stamp"
  exit 0
fi

java_home=${JAVA_HOME:?JAVA_HOME must name the JDK whose runtime goes into the image}
wanted="$java_home $modules"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -x "$out/opt/java/openjdk/bin/java" ]; then
  echo "runtime layer: up to date ($out)"
  exit 0
fi
rm -rf "$out/opt" "$out/lib" "$out/lib64" "$out/etc" "$stamp"
mkdir -p "$out/opt/java"
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --output "$out/opt/java/openjdk"

# the C libraries the runtime loads, at the paths the dynamic loader looks in; the desktop's X11 and sound
# libraries are never loaded by a headless server, so what only they need stays out
runtime="$out/opt/java/openjdk"
roots=$(find "$runtime" -type f \( -name '*.so' -o -path '*/bin/*' \) \
  ! -name 'libawt_xawt.so' ! -name 'libjsound.so' ! -name 'libsplashscreen.so' ! -name 'libjawt.so')
# ldd resolves the runtime's own libraries from its folder; only the machine's are copied
LD_LIBRARY_PATH="$runtime/lib:$runtime/lib/server" ldd $roots 2>/dev/null \
  | awk '/=> \// { print $3 } /^\t\/[^ ]*ld-linux/ { print $1 }' | sort -u \
  | while read -r lib; do
      case "$lib" in "$runtime"/*) continue ;; esac
      mkdir -p "$out$(dirname "$lib")"
      cp -L "$lib" "$out$lib"
    done
# the loader is found at the path compiled into every executable
interp=$(readelf -l "$runtime/bin/java" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
mkdir -p "$out$(dirname "$interp")"
cp -L "$interp" "$out$interp"

mkdir -p "$out/etc"
printf 'root:x:0:0:root:/root:/sbin/nologin\nbaton:x:%s:%s:baton:/data:/sbin/nologin\n' $uid $uid >"$out/etc/passwd"
printf 'root:x:0:\nbaton:x:%s:\n' $uid >"$out/etc/group"
echo "$wanted" >"$stamp"
echo "runtime layer: $(du -sh "$out" | cut -f1) in $out"
