#!/usr/bin/env bash
# validate's all-pairs sweep benchmark: validate --launcher ssh over N namespace hosts (default 8, each with its
# own sshd, data links capped at RATE) against one pair test (the same cluster cut to h1 and h2), alternating, REPS
# times, in one run, each time with one ssh master connection per node (the default) and with every step on a
# connection of its own (RAILYARD_SSH_MULTIPLEX=no), so load falls on both alike. Prints per run the load, the pair
# stage's wall time (first pair started to last pair ended, from report.json), the rounds, the pairs' elapsed
# times, and the goal's ratio: sweep / ((N-1) x one pair).
# Usage: scripts/validate-sweep-bench.sh [N] [REPS] [RATE]      e.g. scripts/validate-sweep-bench.sh 8 3 400mbit
# Needs root, iproute2, openssh-server/client (scripts/testcluster.sh). Everything is removed on exit.
# RY_SWEEP_RAILYARD_PATH=/abs/path/railyard: the hosts run that Railyard (--railyard-path; all namespaces share this
# file system) instead of a bundle, for machines without jlink (the lent GPU machine).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-8}"
reps="${2:-3}"
rate="${3:-400mbit}"
export RY_TESTCLUSTER_PREFIX=rysweep RY_TESTCLUSTER_NET=10.83 RY_TESTCLUSTER_DIR="${TMPDIR:-/tmp}/railyard-sweep-bench"
work="$RY_TESTCLUSTER_DIR"
cleanup() { "$here/scripts/testcluster.sh" down >/dev/null 2>&1 || true; rm -rf "$work.runs"; }
trap cleanup EXIT INT TERM
"$here/scripts/testcluster.sh" up "$n" --rate "$rate" >/dev/null
mkdir -p "$work.runs"
if [ -n "${RY_SWEEP_RAILYARD_PATH:-}" ]; then
  on_nodes=(--railyard-path "$RY_SWEEP_RAILYARD_PATH")
else
  bundle="$work.runs/bundle.tar.gz"
  "$here/railyard" bundle --out "$bundle" --force >/dev/null
  on_nodes=(--bundle "$bundle")
fi
# the same cluster cut to h1 and h2: one pair test, one round
grep -v -E '\bh([3-9]|[1-9][0-9])\b' "$work/cluster.yaml" >"$work.runs/pair.yaml"

stage() { # report.json -> "stage_s rounds pairs median_pair_s max_pair_s"
  python3 - "$1" <<'EOF'
import json, sys
from datetime import datetime
r = json.load(open(sys.argv[1]))
ps = [p for p in r["pairs"] if p["attempt"] == 1]
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()
start = min(t(p["startedAt"]) for p in ps)
end = max(t(p["startedAt"]) + p["elapsed"] for p in ps)
el = sorted(p["elapsed"] for p in ps)
print(f"{end - start:.2f} {r['rounds']} {len(ps)} {el[len(el) // 2]:.2f} {el[-1]:.2f}")
EOF
}

run() { # NAME SPEC -> the stage line
  "$here/railyard" validate --spec "$2" --launcher ssh "${on_nodes[@]}" --no-history --out "$work.runs/$1" \
    --step-timeout 2m >/dev/null 2>&1 || true
  stage "$work.runs/$1/report.json"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n), $(nproc) cores, $n hosts, data links $rate, $reps alternating runs"
run warm "$work.runs/pair.yaml" >/dev/null   # every node unpacks the bundle and trains its class cache once
run warm8 "$work/cluster.yaml" >/dev/null
for r in $(seq 1 "$reps"); do
  order="yes no"; [ $((r % 2)) = 0 ] && order="no yes"   # neither goes first every time
  for mux in $order; do
    load="$(cut -d' ' -f1 /proc/loadavg)"
    export RAILYARD_SSH_MULTIPLEX="$mux"
    read -r p_stage _ _ _ _ <<<"$(run "pair$r$mux" "$work.runs/pair.yaml")"
    read -r s_stage rounds pairs med max <<<"$(run "sweep$r$mux" "$work/cluster.yaml")"
    python3 -c "
p, s, r, med = $p_stage, $s_stage, $rounds, $med
print(f'run $r, master per node $mux (load $load): one pair {p:.2f} s; sweep {s:.2f} s, {r} rounds, $pairs pairs,'
      f' pair median {med:.2f} s, max $max s; sweep / ({r} x one pair) = {s / (r * p):.2f};'
      f' sweep / ({r} x in-sweep pair median) = {s / (r * med):.2f}')"
  done
done
