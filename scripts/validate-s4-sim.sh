#!/usr/bin/env bash
# validate of the S4 cluster (8 nodes x 8 H100, RAILS InfiniBand HDR 200G rails, default 8: one per GPU) by
# simulation: the real validate scheduler over a launcher whose steps take their measured times, on a clock 120 x
# the machine's (cluster/S4Simulation). Prints the schedule and the total of --quick, then of --full.
# Usage: scripts/validate-s4-sim.sh [RAILS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-java.sh"
java_home="$(railyard_find_java)" || exit 3
cd "$here"
JAVA_HOME="$java_home" mvn -B -q -ntp -o -DskipTests package test-compile >/dev/null
cp="target/classes:target/test-classes:$(ls target/lib/*.jar | tr '\n' ':')"
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$java_home/bin/java" -XX:+UseSerialGC -cp "$cp" dev.railyard.cluster.S4Simulation "${1:-8}"
