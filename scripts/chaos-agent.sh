#!/usr/bin/env bash
# The agent's faults at random: a FIFO where a counter was, a port that vanishes, a link flapping between samples,
# a source that throws, the clock jumping, an Xid; each against a running agent and its HTTP server over the real
# H100 node tree, checked for a whole /metrics and a truthful health (AgentChaosTest).
# Usage: scripts/chaos-agent.sh [N faults, default 50] [seed, default the time]
# Prints "N faults injected (...), L lost samples, W wrong healths"; exits non-zero when either is not 0.
set -euo pipefail
cd "$(dirname "$0")/.."
faults="${1:-50}"
seed="${2:-$(date +%s)}"
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
mvn -B -o -q test -Dtest=AgentChaosTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dchaos.faults="$faults" -Dchaos.seed="$seed" >"$log" 2>&1 || status=$?
grep -E 'faults injected' "$log" || { tail -40 "$log"; exit 1; }
[ "$status" -eq 0 ] || grep -E '^\s+"[0-9]+ ' "$log" | head -20
exit "$status"
