#!/usr/bin/env bash
# The agent under 50 scrapes a second for 10 minutes with slow clients beside them, RSS printed as it goes (the goal:
# RSS levels off below 64 MB). The tree is the real H100 capture with the eight-GPU fake NVML (scripts/agent-tree.sh).
#   scripts/agent-soak.sh [SECONDS [RATE]]     (defaults 600 and 50)
# Scrapes are Prometheus-like: a few kept-alive connections, Accept asking for the text format. Beside them, all
# the time: 4 slow readers (a 4 KiB receive buffer, 2 KiB read every 100 ms, so a body takes about 7 s) and 2
# clients that send half a request and stall (the agent cuts them off after 5 s). Every 30 s one line of raw
# figures; the last line compares the first and last two minutes.
# RAILYARD_AGENT_CMD: the command that starts Railyard with the agent's JVM flags (default: ./railyard); AGENT_PORT
# (default 19420).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-600}"
rate="${2:-50}"
work="$(mktemp -d)"
agent_pid=""
cleanup() {
  if [ -n "$agent_pid" ]; then kill "$agent_pid" 2>/dev/null || true; wait "$agent_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
. "$here/scripts/agent-tree.sh"
agent_tree "$work"
if [ -n "${RAILYARD_AGENT_CMD:-}" ]; then
  read -ra railyard <<<"$RAILYARD_AGENT_CMD"
else
  railyard=("$here/railyard")
  "$here/railyard" --version >/dev/null # builds the jar first if the sources changed, outside the measurement
fi
port="${AGENT_PORT:-19420}"
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $seconds s at $rate scrapes/s"
RAILYARD_NVML="$work/libnvidia-ml.so.1" "${railyard[@]}" agent --root "$work/root" --listen "127.0.0.1:$port" \
  --interval 1s >"$work/agent.log" 2>&1 &
agent_pid=$!

python3 - "$agent_pid" "$port" "$seconds" "$rate" <<'PY'
import http.client, os, socket, sys, threading, time
pid, port, seconds, rate = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
hz = os.sysconf("SC_CLK_TCK")
stop = threading.Event()
lock = threading.Lock()
lat, errors, slow_bodies, stalls_cut = [], [0], [0], [0]

def cpu():
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / hz

def status(key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])

def scraper(share):
    conn, nxt = None, time.time()
    while not stop.is_set():
        nxt += share / rate
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            s = time.perf_counter()
            conn.request("GET", "/metrics", headers={"Accept": "text/plain;version=0.0.4"})
            r = conn.getresponse()
            r.read()
            with lock:
                lat.append((time.perf_counter() - s) * 1000)
                if r.status != 200: errors[0] += 1
        except OSError:
            with lock: errors[0] += 1
            conn = None
        pause = nxt - time.time()
        if pause > 0: time.sleep(pause)

def slow_reader():
    while not stop.is_set():
        try:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            while not stop.is_set():
                chunk = s.recv(2048)
                if not chunk: break
                time.sleep(0.1)
            s.close()
            with lock: slow_bodies[0] += 1
        except OSError:
            time.sleep(0.5)

def staller():
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Half: ")
            s.settimeout(30)
            try:
                cut = s.recv(1) == b""  # the agent closed it (its 5 s limit for a request's head)
            except OSError:
                cut = False             # still open after 30 s, or reset
            if cut:
                with lock: stalls_cut[0] += 1
            s.close()
        except OSError:
            time.sleep(0.5)

deadline = time.time() + 60
while True:
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5); c.request("GET", "/healthz")
        if c.getresponse().status == 200: break
    except OSError:
        pass
    if time.time() > deadline: sys.exit("the agent does not answer /healthz")
    time.sleep(0.5)

conns = 4
threads = [threading.Thread(target=scraper, args=(conns,), daemon=True) for _ in range(conns)]
threads += [threading.Thread(target=slow_reader, daemon=True) for _ in range(4)]
threads += [threading.Thread(target=staller, daemon=True) for _ in range(2)]
for t in threads: t.start()
t0, c0, rows = time.time(), cpu(), []
print("elapsed_s rss_mb hwm_mb threads cpu_pct scrapes p50_ms p99_ms max_ms errors slow_bodies stalls_cut", flush=True)
while time.time() - t0 < seconds:
    time.sleep(30)
    with lock:
        l, lat[:] = sorted(lat), []
        e, sb, sc = errors[0], slow_bodies[0], stalls_cut[0]
    c1 = cpu()
    q = lambda p: l[min(len(l) - 1, int(p * len(l)))] if l else float("nan")
    with open(f"/proc/{pid}/status") as f:
        nthreads = next(int(x.split()[1]) for x in f if x.startswith("Threads:"))
    row = (time.time() - t0, status("VmRSS") / 1024, status("VmHWM") / 1024)
    rows.append(row)
    print(f"{row[0]:.0f} {row[1]:.1f} {row[2]:.1f} {nthreads} {(c1 - c0) / 30 * 100:.1f} {len(l)} "
          f"{q(0.5):.1f} {q(0.99):.1f} {l[-1] if l else float('nan'):.1f} {e} {sb} {sc}", flush=True)
    c0 = c1
stop.set()
first = [r[1] for r in rows if r[0] <= 120]
last = [r[1] for r in rows if r[0] > rows[-1][0] - 120]
print(f"rss_mb first_2min_max {max(first):.1f} last_2min_max {max(last):.1f} peak_hwm {rows[-1][2]:.1f}")
PY
