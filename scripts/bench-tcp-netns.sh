#!/usr/bin/env bash
# Side-by-side TCP benchmark: iperf3 and sockperf vs `railyard bench tcp`, over a veth pair between two network
# namespaces (ry-a = client, ry-b = server) at MTU 9000. Tools alternate within each round so that load from
# anything else on the machine hits both sides alike. Needs root, iperf3, sockperf (apt-get install iperf3 sockperf).
#
#   scripts/bench-tcp-netns.sh [--rounds N] [--duration SECONDS] [--out DIR]
#
# Raw outputs of every tool go to DIR (default /tmp/ry-bench-tcp-<UTC time>); a summary with the ratios is printed.
set -euo pipefail

rounds=1
duration=10
out="/tmp/ry-bench-tcp-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: $0 [--rounds N] [--duration SECONDS] [--out DIR]" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
for tool in ip iperf3 sockperf jq; do
  command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install iproute2 iperf3 sockperf jq" >&2; exit 3; }
done
[ "$(id -u)" = 0 ] || { echo "needs root (ip netns)" >&2; exit 3; }

. "$here/scripts/find-java.sh"
java="$(railyard_find_java)/bin/java"
"$here/railyard" --version >/dev/null   # builds target/railyard.jar when the sources changed
# Plain java -jar: the launcher's C1-only, serial-GC flags are tuned for start-up, not for a 10 s data pump.
railyard=("$java" -jar "$here/target/railyard.jar")

A=ry-a B=ry-b IPA=10.77.0.1 IPB=10.77.0.2
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  ip netns del "$A" 2>/dev/null || true
  ip netns del "$B" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

ip netns add "$A"
ip netns add "$B"
ip link add ry-veth-a type veth peer name ry-veth-b
ip link set ry-veth-a netns "$A"
ip link set ry-veth-b netns "$B"
ip -n "$A" addr add "$IPA/24" dev ry-veth-a
ip -n "$B" addr add "$IPB/24" dev ry-veth-b
for ns in "$A" "$B"; do
  ip -n "$ns" link set lo up
  ip -n "$ns" link set "ry-veth-${ns#ry-}" mtu 9000 up
done
ip -n "$A" neigh flush all 2>/dev/null || true   # (no ping on minimal images; the first client connects proves the link)

mkdir -p "$out"
{
  date -u; uname -a; echo "nproc $(nproc)"; "$java" -version 2>&1 | head -1
  iperf3 --version | head -1; sockperf --version 2>&1 | head -1 || true
  ip -n "$A" -d link show ry-veth-a | head -2
} >"$out/machine.txt"

ip netns exec "$B" iperf3 -s -B "$IPB" -p 5201 >"$out/iperf3-server.log" 2>&1 &
pids+=($!)
ip netns exec "$B" sockperf server --tcp -i "$IPB" -p 11111 >"$out/sockperf-server.log" 2>&1 &
pids+=($!)
ip netns exec "$B" "${railyard[@]}" bench tcp server --bind "$IPB" --port 5202 >"$out/railyard-server.log" 2>&1 &
pids+=($!)
sleep 2

for r in $(seq 1 "$rounds"); do
  echo "round $r: bandwidth, 1 stream" >&2
  ip netns exec "$A" iperf3 -c "$IPB" -p 5201 -t "$duration" --json >"$out/r$r-iperf3-P1.json"
  ip netns exec "$A" "${railyard[@]}" bench tcp client "$IPB" --port 5202 --duration "${duration}s" --format json \
    >"$out/r$r-railyard-P1.json"
  echo "round $r: bandwidth, 4 streams" >&2
  ip netns exec "$A" iperf3 -c "$IPB" -p 5201 -t "$duration" -P 4 --json >"$out/r$r-iperf3-P4.json"
  ip netns exec "$A" "${railyard[@]}" bench tcp client "$IPB" --port 5202 --duration "${duration}s" --streams 4 \
    --format json >"$out/r$r-railyard-P4.json"
  echo "round $r: latency, 64 B ping-pong" >&2
  ip netns exec "$A" sockperf ping-pong --tcp -i "$IPB" -p 11111 -t "$duration" -m 64 >"$out/r$r-sockperf.txt" 2>&1
  ip netns exec "$A" "${railyard[@]}" bench tcp client "$IPB" --port 5202 --mode latency --msg-size 64 \
    --duration "${duration}s" --format json >"$out/r$r-railyard-lat.json"
done

sp_avg() { sed -n 's/.*avg-latency=\([0-9.]*\).*/\1/p' "$1" | tail -1; }
sp_pct() { sed -n "s/.*percentile $2 = *\([0-9.]*\).*/\1/p" "$1" | tail -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }

echo "results in $out"
printf '%-5s %-6s %12s %12s %12s %12s %7s %7s\n' round test iperf3-snd iperf3-rcv railyard-snd railyard-rcv ratio-s ratio-r
for r in $(seq 1 "$rounds"); do
  for p in P1 P4; do
    is=$(jq '.end.sum_sent.bits_per_second / 1e9' "$out/r$r-iperf3-$p.json")
    ir=$(jq '.end.sum_received.bits_per_second / 1e9' "$out/r$r-iperf3-$p.json")
    ys=$(jq '.senderGbitsPerSecond' "$out/r$r-railyard-$p.json")
    yr=$(jq '.receiver.value.gbitsPerSecond // 0' "$out/r$r-railyard-$p.json")
    printf '%-5s %-6s %12.2f %12.2f %12.2f %12.2f %7s %7s\n' "$r" "bw-$p" "$is" "$ir" "$ys" "$yr" \
      "$(ratio "$ys" "$is")" "$(ratio "$yr" "$ir")"
  done
done
printf '\n%-5s %10s %10s %10s %10s %10s %10s %7s %7s %7s\n' round sp-avg sp-p50 sp-p99 ry-avg ry-p50 ry-p99 r-avg r-p50 r-p99
for r in $(seq 1 "$rounds"); do
  f="$out/r$r-sockperf.txt" j="$out/r$r-railyard-lat.json"
  sa=$(sp_avg "$f") s50=$(sp_pct "$f" 50.000) s99=$(sp_pct "$f" 99.000)
  ya=$(jq '.oneWay.avgMicros' "$j") y50=$(jq '.oneWay.p50Micros' "$j") y99=$(jq '.oneWay.p99Micros' "$j")
  printf '%-5s %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %7s %7s %7s\n' "$r" "$sa" "$s50" "$s99" "$ya" "$y50" "$y99" \
    "$(ratio "$ya" "$sa")" "$(ratio "$y50" "$s50")" "$(ratio "$y99" "$s99")"
done
