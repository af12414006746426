#!/usr/bin/env bash
# validate over N simulated hosts (default 512, two RDMA rails) through a stub launcher with three injected faults
# (a bad node, a bad link, a slow rail): prints the rounds, the culprits, the coordinator's own time per round and its
# peak RSS (VmHWM). The coordinator runs in its own JVM with a fixed heap so its RSS is what is measured.
# With a third argument, also writes the run's report directory there and prints each file's size.
# Usage: scripts/validate-scale-sim.sh [HOSTS] [HEAP] [REPORT_DIR]     e.g. scripts/validate-scale-sim.sh 512 128m
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-java.sh"
java_home="$(railyard_find_java)" || exit 3
hosts="${1:-512}"
heap="${2:-128m}"
cd "$here"
JAVA_HOME="$java_home" mvn -B -q -ntp -DskipTests package test-compile >/dev/null
cp="target/classes:target/test-classes:$(ls target/lib/*.jar | tr '\n' ':')"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); java -Xmx$heap -XX:+UseSerialGC"
/usr/bin/time -f "wall %e s, user %U s, sys %S s, max RSS %M kB" \
  "$java_home/bin/java" "-Xmx$heap" -XX:+UseSerialGC -cp "$cp" dev.railyard.cluster.ScaleSimulation "$hosts" ${3:+"$3"}
