#!/usr/bin/env bash
# Fills the git-ignored .device/ folder that travels to the GPU machine (carry: [".device"]): a jlink'd runtime,
# the jar and its libraries, the compiled tests with a JUnit console launcher, and nccl-tests' and gpu-burn's source
# from the fetched mirrors (built there, never committed).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
. scripts/find-java.sh
java_home="$(railyard_find_java)"
[ -f .device/railyard-runtime.tar.xz ] || scripts/make-runtime.sh
JAVA_HOME="$java_home" mvn -B -q -ntp -DskipTests package test-compile
rm -rf .device/app .device/test && mkdir -p .device/app .device/test
cp -r target/railyard.jar target/lib .device/app/
mkdir -p .device/test/test-classes/dev/railyard && cp -r target/test-classes/dev/railyard/nativelib .device/test/test-classes/dev/railyard/
m2="$HOME/.m2/repository"
# the console launcher is no dependency of the build: fetched into the local repository the first time
JAVA_HOME="$java_home" mvn -B -q -ntp dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.1
cp "$m2/org/junit/platform/junit-platform-console-standalone/1.14.1/junit-platform-console-standalone-1.14.1.jar" .device/test/junit-platform-console-standalone.jar
cp "$m2/org/assertj/assertj-core/3.27.7/assertj-core-3.27.7.jar" .device/test/assertj-core.jar
cp "$m2/net/bytebuddy/byte-buddy/1.18.3/byte-buddy-1.18.3.jar" .device/test/byte-buddy.jar
mirror=/work/.mirror/NVIDIA+nccl-tests/repo
if [ ! -d .device/nccl-tests ] && [ -d "$mirror" ]; then
  mkdir -p .device/nccl-tests && git --git-dir="$mirror" archive HEAD | tar -x -C .device/nccl-tests
fi
mirror=/work/.mirror/wilicc+gpu-burn/repo
if [ ! -d .device/gpu-burn ] && [ -d "$mirror" ]; then
  mkdir -p .device/gpu-burn && git --git-dir="$mirror" archive HEAD | tar -x -C .device/gpu-burn
fi
du -sh .device
