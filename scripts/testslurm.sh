#!/usr/bin/env bash
# A real Slurm cluster on this one machine for tests: its own munged (own key and socket), one slurmctld and two
# slurmd (n1, n2: Debian's Slurm runs several slurmd on one host, told apart by -N and their ports). Nothing under
# /etc is touched: clients find the cluster through SLURM_CONF=DIR/slurm.conf.
#
#   scripts/testslurm.sh up     # prints DIR; waits until both nodes are idle
#   scripts/testslurm.sh down   # stops everything it started; safe to run twice or after a failed up
#
# DIR is RY_TESTSLURM_DIR (default /tmp/railyard-testslurm); RY_TESTSLURM_PORT (default 26817) is slurmctld's port,
# the slurmd ports are the next two. Needs root, slurm-wlm (slurmctld, slurmd, client) and munge.
set -euo pipefail

dir="${RY_TESTSLURM_DIR:-/tmp/railyard-testslurm}"
port="${RY_TESTSLURM_PORT:-26817}"
nodes=(n1 n2)

die() { echo "testslurm: $*" >&2; exit "${2:-2}"; }

need_tools() {
  [ "$(id -u)" = 0 ] || die "needs root" 3
  for t in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged /usr/bin/srun /usr/bin/sinfo; do
    [ -x "$t" ] || die "missing $t: apt-get install slurm-wlm munge" 3
  done
}

stop_pidfile() {
  local f="$1" pid
  [ -s "$f" ] || return 0
  pid="$(cat "$f")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

down() {
  [ -d "$dir" ] || return 0
  for n in "${nodes[@]}"; do stop_pidfile "$dir/slurmd-$n.pid"; done
  stop_pidfile "$dir/slurmctld.pid"
  stop_pidfile "$dir/munged.pid"
  rm -rf "$dir"
}

wait_for() {  # wait_for WHAT SECONDS COMMAND...
  local what="$1" secs="$2"; shift 2
  for _ in $(seq 1 $((secs * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  die "$what did not come up within $secs s; logs in $dir" 1
}

up() {
  down
  mkdir -p "$dir/state" "$dir/munge"
  chmod 700 "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  /usr/sbin/munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
  wait_for munged 10 test -S "$dir/munge/munge.sock"
  cat >"$dir/slurm.conf" <<EOF
ClusterName=railyardtest
SlurmctldHost=localhost
SlurmctldPort=$port
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool-%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
PropagateResourceLimits=NONE
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=10
KillWait=2
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 1)) CPUs=1 RealMemory=200 State=UNKNOWN
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((port + 2)) CPUs=1 RealMemory=200 State=UNKNOWN
PartitionName=debug Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$dir/slurm.conf"
  /usr/sbin/slurmctld -f "$SLURM_CONF" -i
  wait_for slurmctld 30 /usr/bin/scontrol ping
  for n in "${nodes[@]}"; do
    mkdir -p "$dir/spool-$n"
    /usr/sbin/slurmd -f "$SLURM_CONF" -N "$n"
  done
  wait_for "slurmd n1 and n2" 60 sh -c '[ "$(sinfo -h -N -o %t | grep -c idle)" = 2 ]'
  echo "$dir"
}

case "${1:-}" in
  up) need_tools; up ;;
  down) need_tools; down ;;
  *) die "usage: $0 up | down" ;;
esac
