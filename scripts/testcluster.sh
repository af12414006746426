#!/usr/bin/env bash
# A cluster of N hosts on this one machine, for tests and benchmarks: each host is a network namespace with two
# links (eth0 management on one Linux bridge, eth1 data on another) and its own Debian sshd with host keys made for
# this run. The machine itself reaches the hosts over the management bridge only (it holds MGMT.254); the data
# bridge has no address outside the namespaces. Addresses are private (default 10.78.0.0/24 and 10.78.1.0/24).
#
#   scripts/testcluster.sh up N [--rate RATE]   # N hosts h1..hN; --rate caps every data link (tc htb, e.g. 400mbit)
#   scripts/testcluster.sh shape A B RATE       # the data link between hosts A and B (both ways) at RATE
#   scripts/testcluster.sh stop-sshd HOST       # HOST's sshd stops listening (its sessions, namespace, links stay)
#   scripts/testcluster.sh kill-sshd HOST       # HOST's sshd and every session it serves end (pkill sshd)
#   scripts/testcluster.sh kill-host HOST       # every process in HOST's namespace killed, its links down
#   scripts/testcluster.sh down                 # everything removed; safe to run twice or after a failed up
#
# Written under DIR (RY_TESTCLUSTER_DIR, default /tmp/railyard-testcluster): ssh_config (client key, known_hosts,
# StrictHostKeyChecking yes), cluster.yaml (a spec naming the hosts, networks mgmt and data), hosts (name, mgmt
# address, data address per line). Each host's sshd sets XDG_CACHE_HOME to DIR/<host>/cache, so every host has its
# own Railyard cache on the shared filesystem. RY_TESTCLUSTER_PREFIX (default rytc) names the namespaces and links;
# RY_TESTCLUSTER_NET (default 10.78) the first two octets. Needs root, iproute2, openssh-server, openssh-client.
set -euo pipefail

dir="${RY_TESTCLUSTER_DIR:-/tmp/railyard-testcluster}"
prefix="${RY_TESTCLUSTER_PREFIX:-rytc}"
net="${RY_TESTCLUSTER_NET:-10.78}"
mgmt_br="${prefix}-m"
data_br="${prefix}-d"

die() { echo "testcluster: $*" >&2; exit "${2:-2}"; }

need_tools() {
  [ "$(id -u)" = 0 ] || die "needs root (ip netns, sshd)" 3
  for t in ip tc ssh-keygen; do
    command -v "$t" >/dev/null || die "missing $t: apt-get install iproute2 openssh-client" 3
  done
  [ -x /usr/sbin/sshd ] || die "missing /usr/sbin/sshd: apt-get install openssh-server" 3
}

host_index() {
  [[ "$1" =~ ^h([1-9][0-9]?)$ ]] || die "host names are h1, h2, ...: got '$1'"
  [ -d "$dir/$1" ] || die "no host $1 (is the cluster up?)"
  echo "${BASH_REMATCH[1]}"
}

sshd_pid() {
  local f="$dir/$1/sshd.pid"
  [ -s "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"
}

stop_sshd() {
  local pid
  if pid="$(sshd_pid "$1")"; then
    kill "$pid"
    # sshd removes its pid file on the way out; wait for the process itself, not a fixed time
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  fi
  rm -f "$dir/$1/sshd.pid"
}

kill_sshd_sessions() { # NAMESPACE: every sshd in it (the per-connection ones too), as `pkill sshd` there does
  local ns="$1" pid
  for pid in $(ip netns pids "$ns" 2>/dev/null || true); do
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = sshd ] && kill -9 "$pid" 2>/dev/null || true
  done
}

kill_namespace_processes() {
  local ns="$1" pids
  pids="$(ip netns pids "$ns" 2>/dev/null || true)"
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
}

down() {
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${prefix}-h[0-9]+$" || true); do
    kill_namespace_processes "$ns"
    ip netns del "$ns" 2>/dev/null || true
  done
  for br in "$mgmt_br" "$data_br"; do ip link del "$br" 2>/dev/null || true; done
  # veth ends left in the root namespace by an up that failed half-way
  for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep -E "^${prefix}-h[0-9]+[md]$" || true); do
    ip link del "$l" 2>/dev/null || true
  done
  rm -rf "$dir"
}

start_sshd() {
  local h="$1"
  ip netns exec "${prefix}-$h" /usr/sbin/sshd -f "$dir/$h/sshd_config" -E "$dir/$h/sshd.log"
  for _ in $(seq 1 100); do sshd_pid "$h" >/dev/null && return 0; sleep 0.05; done
  die "sshd of $h did not start; see $dir/$h/sshd.log" 1
}

up() {
  local n="$1" rate="${2:-}"
  [[ "$n" =~ ^[1-9][0-9]?$ ]] && [ "$n" -le 50 ] || die "up N: N is 1..50"
  down
  mkdir -p "$dir" /run/sshd
  chmod 700 "$dir"
  ssh-keygen -q -t ed25519 -N '' -C "railyard-testcluster-client" -f "$dir/client_key"
  cp "$dir/client_key.pub" "$dir/authorized_keys"
  : >"$dir/known_hosts"
  : >"$dir/hosts"
  ip link add "$mgmt_br" type bridge
  ip link add "$data_br" type bridge
  ip addr add "$net.0.254/24" dev "$mgmt_br"
  ip link set "$mgmt_br" up
  ip link set "$data_br" up
  for i in $(seq 1 "$n"); do
    local h="h$i" ns="${prefix}-h$i"
    mkdir -p "$dir/$h/cache"
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    for side in m d; do
      local dev="eth0" br="$mgmt_br" addr="$net.0.$i"
      [ "$side" = d ] && { dev="eth1"; br="$data_br"; addr="$net.1.$i"; }
      ip link add "${prefix}-h$i$side" type veth peer name "$dev" netns "$ns"
      ip link set "${prefix}-h$i$side" master "$br" up
      ip -n "$ns" addr add "$addr/24" dev "$dev"
      ip -n "$ns" link set "$dev" up
    done
    if [ -n "$rate" ]; then
      ip netns exec "$ns" tc qdisc replace dev eth1 root handle 1: htb default 10
      ip netns exec "$ns" tc class replace dev eth1 parent 1: classid 1:10 htb rate "$rate" quantum 60000
    fi
    ssh-keygen -q -t ed25519 -N '' -C "$h" -f "$dir/$h/ssh_host_ed25519_key"
    cat >"$dir/$h/sshd_config" <<EOF
ListenAddress $net.0.$i
Port 22
HostKey $dir/$h/ssh_host_ed25519_key
PidFile $dir/$h/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxStartups 100:30:200
SetEnv XDG_CACHE_HOME=$dir/$h/cache RAILYARD_TESTCLUSTER_HOST=$h
Subsystem sftp internal-sftp
EOF
    echo "$net.0.$i $(cut -d' ' -f1,2 "$dir/$h/ssh_host_ed25519_key.pub")" >>"$dir/known_hosts"
    echo "$h $net.0.$i $net.1.$i" >>"$dir/hosts"
    start_sshd "$h"
  done
  cat >"$dir/ssh_config" <<EOF
Host $net.0.*
  User root
  IdentityFile $dir/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $dir/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  ConnectTimeout 5
EOF
  {
    echo "cluster: testcluster"
    echo "ssh: {config_file: $dir/ssh_config}"
    echo "nodes:"
    for i in $(seq 1 "$n"); do echo "  - {name: h$i, address: $net.0.$i}"; done
    echo "networks:"
    echo "  - name: mgmt"
    echo "    role: management"
    echo "    subnet: $net.0.0/24"
    echo "    bind:"
    for i in $(seq 1 "$n"); do echo "      h$i: {netdev: eth0, address: $net.0.$i}"; done
    echo "  - name: data"
    echo "    role: compute"
    echo "    subnet: $net.1.0/24"
    echo "    bind:"
    for i in $(seq 1 "$n"); do echo "      h$i: {netdev: eth1, address: $net.1.$i}"; done
  } >"$dir/cluster.yaml"
  echo "$dir"
}

# One direction of a shaped link: traffic leaving FROM's data link for TO's data address.
shape_one() {
  local from="$1" to="$2" rate="$3" ns="${prefix}-h$1"
  if ! ip netns exec "$ns" tc qdisc show dev eth1 | grep -q '^qdisc htb 1:'; then
    ip netns exec "$ns" tc qdisc replace dev eth1 root handle 1: htb default 10
    ip netns exec "$ns" tc class replace dev eth1 parent 1: classid 1:10 htb rate 100gbit quantum 60000
  fi
  local cls=$((100 + to))
  ip netns exec "$ns" tc class replace dev eth1 parent 1: classid "1:$cls" htb rate "$rate" quantum 60000
  ip netns exec "$ns" tc filter del dev eth1 parent 1: prio "$cls" 2>/dev/null || true
  ip netns exec "$ns" tc filter add dev eth1 parent 1: protocol ip prio "$cls" u32 \
    match ip dst "$net.1.$to/32" flowid "1:$cls"
}

cmd="${1:-}"
case "$cmd" in
  up)
    [ $# -ge 2 ] || die "usage: $0 up N [--rate RATE]"
    need_tools
    n="$2"; rate=""
    if [ $# -ge 3 ]; then [ "$3" = --rate ] && [ $# -eq 4 ] || die "usage: $0 up N [--rate RATE]"; rate="$4"; fi
    up "$n" "$rate"
    ;;
  down)
    need_tools
    down
    ;;
  shape)
    [ $# -eq 4 ] || die "usage: $0 shape A B RATE"
    need_tools
    [[ "$4" =~ ^[0-9]+(bit|kbit|mbit|gbit)$ ]] || die "RATE like 100mbit: got '$4'"
    a="$(host_index "$2")"; b="$(host_index "$3")"
    shape_one "$a" "$b" "$4"
    shape_one "$b" "$a" "$4"
    ;;
  stop-sshd)
    [ $# -eq 2 ] || die "usage: $0 stop-sshd HOST"
    need_tools
    host_index "$2" >/dev/null
    stop_sshd "$2"
    ;;
  kill-sshd)
    [ $# -eq 2 ] || die "usage: $0 kill-sshd HOST"
    need_tools
    i="$(host_index "$2")"
    stop_sshd "$2"
    kill_sshd_sessions "${prefix}-h$i"
    ;;
  start-sshd)
    [ $# -eq 2 ] || die "usage: $0 start-sshd HOST"
    need_tools
    host_index "$2" >/dev/null
    sshd_pid "$2" >/dev/null || start_sshd "$2"
    ;;
  kill-host)
    [ $# -eq 2 ] || die "usage: $0 kill-host HOST"
    need_tools
    i="$(host_index "$2")"
    kill_namespace_processes "${prefix}-h$i"
    ip -n "${prefix}-h$i" link set eth0 down
    ip -n "${prefix}-h$i" link set eth1 down
    rm -f "$dir/$2/sshd.pid"
    ;;
  *)
    die "usage: $0 up N [--rate RATE] | shape A B RATE | stop-sshd HOST | kill-sshd HOST | start-sshd HOST | kill-host HOST | down"
    ;;
esac
