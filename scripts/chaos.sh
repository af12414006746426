#!/usr/bin/env bash
# Fault injection with random timings against real engines, N times, then one line:
#   "N faults injected, L lost results, W wrong culprits"
#
#   scripts/chaos.sh N [LOSS_EVERY]
#
# Each fault is one of:
#   signal     railyard validate on this machine (no spec) gets SIGINT or SIGTERM, to the process alone or to its
#              process group, a random 0-6 s after its first line; a second signal follows in 1 of 8 runs.
#   node loss  (every LOSS_EVERY-th fault, default 8; 0 for none) railyard validate over ssh on 4 namespace hosts
#              (scripts/testcluster.sh, 10.79.x) loses a random host after a random 3-40 s: its sshd stopped
#              listening (its sessions, the node's ssh master among them, live on), its sshd and every session
#              killed, or every process in it killed and its links down.
# A lost result: no report.json, no verdict line (unless a second signal ended the run at once, which promises
# neither), no history row, an exit code outside 0, 1, 3, or (node loss) a pair of the nodes that reached the pair
# stage missing from the report.
# A wrong culprit: any culprit at all, since every link of the cluster is healthy, or a lost host not named LOST or
# UNREACHABLE while a pair of it is not run. Needs root, a built target/ (mvn package), setsid, python3; the node
# losses also need what testcluster.sh needs. Run it under flock /tmp/ry-engines.lock beside the test suites.
set -euo pipefail
n="${1:?usage: scripts/chaos.sh N [LOSS_EVERY]}"
loss_every="${2:-8}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-java.sh"
java_home="$(railyard_find_java)"
java="$java_home/bin/java"
cp="$here/target/classes:$here/target/lib/*"
work="$(mktemp -d /tmp/railyard-chaos.XXXXXX)"
export RY_TESTCLUSTER_DIR=/tmp/railyard-chaos-cluster RY_TESTCLUSTER_PREFIX=rychaos RY_TESTCLUSTER_NET=10.79
railyard() { "$java" --enable-native-access=ALL-UNNAMED -cp "$cp" dev.railyard.cli.Main "$@"; }
cluster_up=0
cleanup() {
  [ "$cluster_up" = 1 ] && "$here/scripts/testcluster.sh" down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

faults=0; lost=0; wrong=0
note() { echo "chaos: $*" >&2; }

# Reads report.json and prints "pairs culprits notrun lostnodes expected" for the checks below: every pair of the
# nodes that reached the pair stage (COMPLETED, or LOST during it) must be in the report, measured or not run.
summary() {
  python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
pairs = r.get("pairs", [])
notrun = sum(1 for p in pairs if "notRun" in p.get("outcome", {}))
lost = ",".join(n["node"] + ":" + n["status"] for n in r["nodes"] if n["status"] != "COMPLETED")
ends = {e for p in pairs for e in (p["test"]["client"], p["test"]["server"])}
k = sum(1 for n in r["nodes"] if n["status"] == "COMPLETED" or (n["status"] == "LOST" and n["node"] in ends))
print(len(pairs), len(r.get("culprits", [])), notrun, lost or "-", k * (k - 1) // 2)
EOF
}

signal_fault() {
  local i="$1" d="$work/s$i" sig=INT to="" delay second=0
  mkdir -p "$d"
  [ $((RANDOM % 2)) = 0 ] && sig=TERM
  [ $((RANDOM % 2)) = 0 ] && to="-"
  [ $((RANDOM % 8)) = 0 ] && second=1
  delay="$((RANDOM % 6)).$((RANDOM % 10))"
  setsid "$java" --enable-native-access=ALL-UNNAMED -cp "$cp" dev.railyard.cli.Main validate \
    --db "$d/h.db" --out "$d/report" >"$d/stdout" 2>"$d/stderr" &
  local pid=$!
  # the random delay counts from validate's first line: before Railyard's main runs there is nothing to keep, and a
  # JVM still starting ends on a signal as any program does
  while kill -0 "$pid" 2>/dev/null && ! grep -q "^.*validate: validate " "$d/stderr" 2>/dev/null; do sleep 0.05; done
  sleep "$delay"
  kill "-$sig" -- "$to$pid" 2>/dev/null || true
  [ "$second" = 1 ] && kill "-$sig" -- "$to$pid" 2>/dev/null || true
  local code=0
  wait "$pid" || code=$?
  faults=$((faults + 1))
  local why=""
  if [ "$second" = 1 ] && grep -q "stopped at once by a second signal" "$d/stderr"; then
    [ "$code" = 1 ] || why="second signal: exit $code"
  else
    [ -f "$d/report/report.json" ] || why="no report.json"
    grep -q "VERDICT: " "$d/stdout" || why="$why no verdict line"
    local id
    id="$(grep -oE 'validate [0-9]{8}-[0-9]{6}-[0-9a-f]{4}' "$d/stderr" | head -1 | cut -d' ' -f2 || true)"
    [ -n "$id" ] || why="$why no run id printed"
    if [ -n "$id" ]; then
      railyard history --db "$d/h.db" 2>/dev/null | grep -q "$id" || why="$why no history row"
    fi
    case "$code" in 0|1) ;; *) why="$why exit $code" ;; esac
  fi
  if [ -n "$why" ]; then lost=$((lost + 1)); note "signal fault $i (SIG$sig to ${to:+group}${to:-process} after ${delay}s): LOST: $why ($d)"; fi
  if [ -f "$d/report/report.json" ]; then
    read -r _ culprits _ _ _ < <(summary "$d/report/report.json")
    [ "$culprits" = 0 ] || { wrong=$((wrong + 1)); note "signal fault $i: $culprits culprits on one machine"; }
  fi
  [ -n "$why" ] || rm -rf "$d"
}

loss_fault() {
  local i="$1" d="$work/l$i" host verb delay
  mkdir -p "$d"
  if [ "$cluster_up" = 0 ]; then
    "$here/scripts/testcluster.sh" up 4 --rate 400mbit >/dev/null
    cluster_up=1
  fi
  host="h$((RANDOM % 4 + 1))"
  verbs=(stop-sshd kill-sshd kill-host)
  verb="${verbs[$((RANDOM % 3))]}"
  delay="$((RANDOM % 38 + 3))"
  railyard validate --spec "$RY_TESTCLUSTER_DIR/cluster.yaml" --launcher ssh --bundle "$work/bundle.tar.gz" \
    --no-history --out "$d/report" --step-timeout 2m >"$d/stdout" 2>"$d/stderr" &
  local pid=$!
  sleep "$delay"
  "$here/scripts/testcluster.sh" "$verb" "$host" >/dev/null
  local code=0
  wait "$pid" || code=$?
  faults=$((faults + 1))
  local why="" pairs=0 culprits=0 notrun=0 nodes="-" expected=0
  if [ -f "$d/report/report.json" ]; then
    read -r pairs culprits notrun nodes expected < <(summary "$d/report/report.json")
    [ "$pairs" = "$expected" ] || why="$pairs of $expected pairs in the report"
  else
    why="no report.json"
  fi
  grep -q "VERDICT: " "$d/stdout" || why="$why no verdict line"
  case "$code" in 0|3) ;; *) why="$why exit $code" ;; esac
  if [ -n "$why" ]; then lost=$((lost + 1)); note "node loss $i ($verb $host after ${delay}s): LOST: $why ($d)"; fi
  local bad=""
  [ "$culprits" = 0 ] || bad="$culprits culprits"
  if [ "$notrun" != 0 ] && ! [[ "$nodes" =~ $host:(LOST|UNREACHABLE) ]]; then bad="$bad; pairs not run but $host is $nodes"; fi
  if [ -n "$bad" ]; then wrong=$((wrong + 1)); note "node loss $i ($verb $host after ${delay}s): WRONG: $bad ($d)"; fi
  note "node loss $i: $verb $host after ${delay}s: exit $code, nodes $nodes, $notrun pairs not run, $culprits culprits"
  # the next fault starts from a whole cluster: a killed host comes back only with a new cluster
  if [ "$verb" = kill-host ]; then
    "$here/scripts/testcluster.sh" up 4 --rate 400mbit >/dev/null
  else
    "$here/scripts/testcluster.sh" start-sshd "$host" >/dev/null
  fi
  [ -n "$why$bad" ] || rm -rf "$d"
}

if [ "$loss_every" != 0 ]; then
  railyard bundle --out "$work/bundle.tar.gz" --cache-dir "$here/target/bundle-cache" >/dev/null
fi
for i in $(seq 1 "$n"); do
  if [ "$loss_every" != 0 ] && [ $((i % loss_every)) = 0 ]; then loss_fault "$i"; else signal_fault "$i"; fi
done
echo "$faults faults injected, $lost lost results, $wrong wrong culprits"
[ "$lost" = 0 ] && [ "$wrong" = 0 ]
