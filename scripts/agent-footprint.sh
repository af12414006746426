#!/usr/bin/env bash
# The agent's footprint beside Debian's prometheus-node-exporter on the same tree, in one run (the goals: at most 1 %
# of a core at 1 s sampling of 8 GPUs + 8 ports, the first minute included; /metrics p99 no higher than
# node_exporter's at 50 req/s; RSS after 10 minutes of that: scripts/agent-soak.sh).
# The tree is the real gpud H100 capture (8 ConnectX-7 NDR ports + a BlueField bond) with the eight-GPU fake NVML.
#   scripts/agent-footprint.sh [IDLE_SECONDS [LOAD_SECONDS]]     (defaults 60 and 20)
# Prints raw numbers; docs/benchmarks.md records them with the date, machine and load average.
# Where there is no checkout build (the lent GPU machine), RAILYARD_AGENT_CMD is the command that starts Railyard
# with the agent's JVM flags, and NODE_EXPORTER the node_exporter binary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
idle="${1:-60}"
load="${2:-20}"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

. "$here/scripts/agent-tree.sh"
agent_tree "$work"
tree="$work/root"
if [ -n "${RAILYARD_AGENT_CMD:-}" ]; then
  read -ra railyard <<<"$RAILYARD_AGENT_CMD"
else
  railyard=("$here/railyard")
  "$here/railyard" --version >/dev/null # builds the jar first if the sources changed, outside the measurement
fi
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
agent_port=19410
ne_port=19100
started="$(date +%s.%N)"
RAILYARD_NVML="$work/libnvidia-ml.so.1" "${railyard[@]}" agent --root "$tree" --listen "127.0.0.1:$agent_port" \
  --interval 1s >"$work/agent.log" 2>&1 &
pids+=($!)
agent_pid=$!
"${NODE_EXPORTER:-prometheus-node-exporter}" --path.sysfs="$tree/sys" --path.procfs="$tree/proc" --path.rootfs="$tree" \
  --web.listen-address="127.0.0.1:$ne_port" >"$work/node_exporter.log" 2>&1 &
pids+=($!)
ne_pid=$!

python3 - "$agent_pid" "$agent_port" "$ne_pid" "$ne_port" "$idle" "$load" "$started" <<'PY'
import http.client, os, sys, time
agent_pid, agent_port, ne_pid, ne_port, idle, load = map(int, sys.argv[1:7])
started = float(sys.argv[7])
hz = os.sysconf("SC_CLK_TCK")

def cpu(pid):  # utime + stime of the whole process, in seconds
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / hz

def rss_kb(pid, key="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])

def get(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", "/metrics")
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, len(body)

deadline = time.time() + 60
for port in (agent_port, ne_port):
    while True:
        try:
            if get(port)[0] == 200: break
        except OSError:
            pass
        if time.time() > deadline: sys.exit(f"nothing answers on port {port}")
        time.sleep(0.5)
# the first minute from the agent's start, its start-up and JIT included, sampling unscraped but for the readiness check
time.sleep(max(0.0, started + 60 - time.time()))
first = cpu(agent_pid) / (time.time() - started) * 100
print(f"railyard agent: first minute CPU {first:.2f} % of a core "
      f"over {time.time() - started:.0f} s from its start (the launcher's own shell included)")

def idle_cpu(pid):
    c0, t0 = cpu(pid), time.time()
    time.sleep(idle)
    return (cpu(pid) - c0) / (time.time() - t0) * 100

def under_load(pid, port):
    lat, period = [], 1 / 50
    c0, t0 = cpu(pid), time.time()
    nxt = t0
    while time.time() - t0 < load:
        nxt += period
        s = time.perf_counter()
        status, size = get(port)
        lat.append((time.perf_counter() - s) * 1000)
        if status != 200: sys.exit(f"/metrics on {port}: HTTP {status}")
        pause = nxt - time.time()
        if pause > 0: time.sleep(pause)
    busy = (cpu(pid) - c0) / (time.time() - t0) * 100
    lat.sort()
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
    return busy, size, len(lat), q(0.5), q(0.99), lat[-1]

r = {}
for name, pid, port in (("railyard agent", agent_pid, agent_port), ("node_exporter", ne_pid, ne_port)):
    # node_exporter only works when scraped, so its idle CPU is near 0 by design: both are also measured at 1 scrape/s
    idle_pct = idle_cpu(pid)
    busy, size, n, p50, p99, mx = under_load(pid, port)
    rss = rss_kb(pid) / 1024
    r[name] = (idle_pct, rss, busy, size, n, p50, p99, mx)
    print(f"{name}: idle CPU {idle_pct:.2f} % of a core over {idle} s; RSS {rss:.1f} MB "
          f"(peak {rss_kb(pid, 'VmHWM')/1024:.1f} MB); /metrics {size} bytes; at 50 req/s for {load} s: "
          f"{n} requests, CPU {busy:.1f} % of a core, latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {mx:.1f} ms")

# the same figures as docs/benchmarks.md's table
a, e = r["railyard agent"], r["node_exporter"]
ratio = lambda x, y: f"{x / y:.2f}" if y else "—"
print()
print("| | railyard agent | node_exporter | ratio |")
print("|---|---|---|---|")
print(f"| CPU: first minute (start-up, JIT) / idle after it, 8 GPUs + 9 ports at 1 s | {first:.2f} / {a[0]:.2f} % of a core "
      f"| — / {e[0]:.2f} % | — |")
print(f"| RSS after {load} s at 50 req/s | {a[1]:.1f} MB | {e[1]:.1f} MB | {ratio(a[1], e[1])} |")
print(f"| at 50 req/s for {load} s: requests served, CPU | {a[4]}, {a[2]:.1f} % | {e[4]}, {e[2]:.1f} % | {ratio(a[2], e[2])} |")
print(f"| /metrics p50 / p99 / max (size) | {a[5]:.1f} / {a[6]:.1f} / {a[7]:.1f} ms ({a[3]:,} B) "
      f"| {e[5]:.1f} / {e[6]:.1f} / {e[7]:.1f} ms ({e[3]:,} B) | {ratio(a[5], e[5])} / {ratio(a[6], e[6])} / {ratio(a[7], e[7])} |")
PY
