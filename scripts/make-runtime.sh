#!/usr/bin/env bash
# Builds a trimmed Java 25 runtime with jlink for machines without Java (the GPU test machine):
# .device/railyard-runtime.tar.xz plus the jar and its libraries in .device/app/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-java.sh"
java_home="$(railyard_find_java)"
cd "$here"
JAVA_HOME="$java_home" mvn -B -q -ntp -DskipTests package
out="$here/.device"
rm -rf "$out/runtime" "$out/app"
mkdir -p "$out/app"
"$java_home/bin/jlink" --add-modules java.base,java.desktop,java.sql,java.logging,java.xml,java.management,jdk.httpserver,java.net.http,jdk.unsupported \
  --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$out/runtime"
tar -C "$out" -cJf "$out/railyard-runtime.tar.xz" runtime
rm -rf "$out/runtime"
cp -r target/railyard.jar target/lib "$out/app/"
du -sh "$out"/*
