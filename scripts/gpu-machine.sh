#!/usr/bin/env bash
# Runs Railyard on the lent GPU machine, which has no Java: unpacks the jlink'd runtime that
# scripts/prepare-gpu-machine.sh put in .device/, then runs the phases named on the command line.
# Results go to $OUT/logs (packed into $OUT/results.tgz at the end). Never changes clocks, power, persistence or
# compute mode; keeps NVLink multicast off.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
here="$(pwd)"
dev="$here/.device"
out="${OUT:-/tmp/railyard-out}"
logs="$out/logs"
mkdir -p "$logs"
rt=/tmp/railyard-runtime
if [ ! -x "$rt/runtime/bin/java" ]; then
  mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"
fi
java="$rt/runtime/bin/java"
jar="$dev/app/railyard.jar"
aot="$rt/railyard.aot"
if [ ! -f "$aot" ]; then
  "$java" -XX:AOTCacheOutput="$aot" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xlog:disable -Xlog:all=off \
    -jar "$jar" inventory --format json >/dev/null 2>&1 || rm -f "$aot"
fi
# what ./railyard does: short commands with the AOT cache and C1, benchmarks with C2
ry() { "$java" -Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -XX:AOTCache="$aot" -jar "$jar" "$@"; }
# benchmarks: C2, and the AOT cache as ./railyard gives every command (it holds the JDK's and Jackson's classes)
ryb() { "$java" -Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:AOTCache="$aot" -jar "$jar" "$@"; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# the agent's JVM flags as ./railyard gives them
agent_flags="-XX:TieredStopAtLevel=1 -XX:CICompilerCount=1 -Xms8m -Xmx24m -Xmn8m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20 -XX:+UseCompactObjectHeaders -XX:MaxMetaspaceSize=64m -XX:ReservedCodeCacheSize=16m -Xss512k -XX:-UsePerfData"
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)

phase_info() {
  { date -u; uname -a; nproc; nvidia-smi; nvidia-smi topo -m; ls -l /usr/lib/x86_64-linux-gnu/libnccl* \
      /usr/local/cuda/lib64/libcudart* 2>&1; "$java" -version 2>&1; } >"$logs/info.txt" 2>&1
}

phase_inventory() {
  ry inventory >"$logs/inventory.txt" 2>&1; echo "rc=$?" >>"$logs/inventory.txt"
  ry inventory --format json >"$logs/inventory.json" 2>"$logs/inventory.json.err"
  ry check >"$logs/check.txt" 2>&1; echo "rc=$?" >>"$logs/check.txt"
  ry check --format json >"$logs/check.json" 2>&1
  ry capture --out "$out/capture.tgz" --force >"$logs/capture.txt" 2>&1
  rm -rf /tmp/cap && mkdir -p /tmp/cap && tar -C /tmp/cap -xzf "$out/capture.tgz" && ry inventory --root "$(ls -d /tmp/cap/*/ | head -1)" >"$logs/inventory-from-capture.txt" 2>&1
}

phase_invbench() {
  local f="$logs/inventory-bench.txt"
  echo "# wall ms, interleaved: railyard inventory --format json (AOT cache) | nvidia-smi -q | railyard without AOT" >"$f"
  for i in $(seq 1 "${SAMPLES:-10}"); do
    t=$(date +%s%N); ry inventory --format json >/dev/null 2>&1; a=$(ms "$t")
    t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; b=$(ms "$t")
    t=$(date +%s%N); "$java" -Xlog:disable -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" inventory --format json >/dev/null 2>&1; c=$(ms "$t")
    echo "$i $a $b $c" >>"$f"
  done
}

phase_nvmltest() {
  local t="$dev/test"
  "$java" -jar "$t/junit-platform-console-standalone.jar" execute --disable-banner --details=tree \
    --class-path "$dev/app/railyard.jar:$t/test-classes:$t/assertj-core.jar:$t/byte-buddy.jar:$(ls "$dev"/app/lib/*.jar | tr '\n' ':')" \
    --include-tag gpu --select-class dev.railyard.nativelib.FfmNvmlRealGpuTest >"$logs/nvml-real-test.txt" 2>&1
  echo "rc=$?" >>"$logs/nvml-real-test.txt"
}

phase_gpubench() {
  ryb bench gpu >"$logs/bench-gpu.txt" 2>&1; echo "rc=$?" >>"$logs/bench-gpu.txt"
}

phase_ncclbuild() {
  rm -rf /tmp/nccl-tests && cp -r "$dev/nccl-tests" /tmp/nccl-tests
  (cd /tmp/nccl-tests && make -j16 MPI=1 MPI_HOME=/usr/lib/x86_64-linux-gnu/openmpi CUDA_HOME=/usr/local/cuda \
     NCCL_HOME=/usr NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" >"$logs/nccl-tests-build.txt" 2>&1)
  echo "rc=$?" >>"$logs/nccl-tests-build.txt"
}

# Side by side, same flags: nccl-tests all_reduce_perf and railyard bench nccl, alternating, with 2 and 4 GPUs, one
# process driving them and one process per GPU. compare_tools PREFIX REPS FLAGS... writes
# $logs/PREFIX{nccl-tests,railyard}-{g,mpi/procs}N-rREP.txt.
compare_tools() {
  local prefix=$1 reps=$2; shift 2
  local nt=/tmp/nccl-tests/build/all_reduce_perf
  for rep in $(seq 1 "$reps"); do
    for g in 2 4; do
      [ "$ngpu" -ge "$g" ] || continue
      "$nt" "$@" -g "$g" >"$logs/${prefix}nccl-tests-g$g-r$rep.txt" 2>&1
      ryb bench nccl all_reduce "$@" -g "$g" >"$logs/${prefix}railyard-g$g-r$rep.txt" 2>&1
      mpirun --allow-run-as-root -np "$g" -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH "$nt" "$@" -g 1 \
        >"$logs/${prefix}nccl-tests-mpi$g-r$rep.txt" 2>&1
      ryb bench nccl all_reduce "$@" --procs "$g" >"$logs/${prefix}railyard-procs$g-r$rep.txt" 2>&1
    done
  done
}

phase_ncclcompare() {
  compare_tools "" "${REPS:-2}" -b 8 -e 2G -f 2 -w 5 -n 20
}

# Looks for JVM pauses (safepoints, deoptimisation, compilation) inside the small-message sweep.
phase_ncclprobe() {
  "$java" -Xlog:safepoint=info,deoptimization=debug,gc=info:file="$logs/probe-jvm.log":uptime -XX:+UseSerialGC \
    -XX:+PrintCompilation -jar "$jar" bench nccl all_reduce -b 8 -e 64K -f 2 -g 2 >"$logs/probe.txt" 2>&1
}

# An interrupted sweep must still print the rows it measured (text footer / JSON with "complete": false).
phase_ncclinterrupt() {
  timeout -s INT 8 "$java" -Xlog:disable -XX:+UseSerialGC -jar "$jar" bench nccl -b 8 -e 8G -f 2 -g 2 \
    >"$logs/interrupt-text.txt" 2>&1; echo "rc=$?" >>"$logs/interrupt-text.txt"
  timeout -s INT 8 "$java" -Xlog:disable -XX:+UseSerialGC -jar "$jar" bench nccl -b 8 -e 8G -f 2 -g 2 --format json \
    >"$logs/interrupt-json.txt" 2>&1; echo "rc=$?" >>"$logs/interrupt-json.txt"
}

# Small messages only (8 B - 64 KB), SMALL_REPS times (default 8). Times on this shared host jump between levels from
# one process to the next for both tools, so compare per-size medians over all repetitions (scripts/compare-nccl.py
# with globs).
phase_ncclsmall() {
  compare_tools small- "${SMALL_REPS:-8}" -b 8 -e 64K -f 2 -w 5 -n 20
}

# Wall time of a one-size run at 2 GiB, both tools: the JVM warm-up runs at the smallest count, not at -b.
phase_ncclstart() {
  local f="$logs/start-2g.txt" nt=/tmp/nccl-tests/build/all_reduce_perf t
  : >"$f"
  for rep in 1 2 3; do
    t=$(date +%s%N); "$nt" -b 2G -e 2G -g 2 >>"$f" 2>&1; echo "nccl-tests wall ms: $(ms "$t")" >>"$f"
    t=$(date +%s%N); ryb bench nccl -b 2G -e 2G -g 2 >>"$f" 2>&1; echo "railyard wall ms: $(ms "$t")" >>"$f"
  done
  # where railyard's time goes (stderr: JVM start, library load, CUDA context, comm init, alloc, loops, check, output)
  for rep in 1 2; do
    t=$(date +%s%N); RAILYARD_T0_NS=$t ryb bench nccl -b 2G -e 2G -g 2 --timings >>"$logs/start-2g-timings.txt" 2>&1
    echo "railyard wall ms: $(ms "$t")" >>"$logs/start-2g-timings.txt"
  done
}

phase_ncclsmoke() {
  for c in all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv; do
    echo "== $c" ; ryb bench nccl "$c" -b 8 -e 64M -f 8 -g "$ngpu" 2>&1
  done >"$logs/nccl-smoke.txt"
}

# railyard validate with no spec: this machine as a one-node cluster; NCCL runs one rank per GPU through the local
# launcher (the launcher's rank code path), bench gpu per node; the report directory lands in the logs
phase_validate() {
  (cd "$logs" && ryb validate --no-history --out "$logs/validate-report" >"$logs/validate.txt" 2>"$logs/validate.err";
   echo "exit $?" >>"$logs/validate.txt")
}

# The health agent on the real GPUs: /metrics (text and OpenMetrics), /api/health, then its footprint over 60 s of
# 1 s sampling (CPU ticks and RSS from /proc), checked with promtool when .device/promtool travelled along.
phase_agent() {
  local port=19410 f="$logs/agent-footprint.txt"
  # AGENT_JVM: the JVM flags to compare (default: what ./railyard gives the agent)
  # shellcheck disable=SC2086
  "$java" -Xlog:disable -XX:+UseSerialGC ${AGENT_JVM:-$agent_flags} \
    -jar "$jar" agent --listen 127.0.0.1:$port --interval 1s >"$logs/agent.err" 2>&1 &
  local pid=$!
  for _ in $(seq 150); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
  sleep 5
  curl -s "http://127.0.0.1:$port/metrics" >"$logs/agent-metrics.txt"
  curl -s -H 'Accept: application/openmetrics-text; version=1.0.0' "http://127.0.0.1:$port/metrics" >"$logs/agent-metrics-openmetrics.txt"
  curl -s "http://127.0.0.1:$port/api/health" >"$logs/agent-health.json"
  curl -s "http://127.0.0.1:$port/" >"$logs/agent-status.html"
  [ -x "$dev/promtool" ] && { "$dev/promtool" check metrics <"$logs/agent-metrics.txt" >"$logs/agent-promtool.txt" 2>&1; echo "rc=$?" >>"$logs/agent-promtool.txt"; }
  local hz t0 t1 c0 c1
  hz=$(getconf CLK_TCK)
  c0=$(awk '{print $14+$15}' /proc/$pid/stat); t0=$(date +%s%N)
  sleep 60
  c1=$(awk '{print $14+$15}' /proc/$pid/stat); t1=$(date +%s%N)
  { echo "gpus $ngpu, 60 s of 1 s sampling"
    echo "cpu_ticks $((c1 - c0)) hz $hz wall_ms $(( (t1 - t0) / 1000000 ))"
    grep -E 'VmRSS|VmHWM' /proc/$pid/status
    curl -s "http://127.0.0.1:$port/metrics" | grep -E '^railyard_(samples_total|sample_duration_seconds|nvml_up)'
    for i in $(seq 20); do t=$(date +%s%N); curl -s "http://127.0.0.1:$port/metrics" >/dev/null; echo "scrape_ms $(ms "$t")"; done
  } >"$f" 2>&1
  kill "$pid"; wait "$pid" 2>/dev/null
  "$java" -Xlog:disable -XX:+UseSerialGC -jar "$jar" agent --once >"$logs/agent-once.txt" 2>&1; echo "rc=$?" >>"$logs/agent-once.txt"
}

# /metrics beside nvidia-smi --query-gpu under an NCCL all-reduce load: one line of each per second for 30 s, the
# agent at its default 1 s interval, compared offline (utilisation, memory used and reserved, clocks, power, heat).
phase_agentsmi() {
  local port=19411 f="$logs/agent-smi.txt"
  # shellcheck disable=SC2086
  "$java" -Xlog:disable -XX:+UseSerialGC $agent_flags -XX:ErrorFile="$logs/hs_err_%p.log" -jar "${AGENT_JAR:-$jar}" \
    agent --listen 127.0.0.1:$port --interval 1s >"$logs/agentsmi-agent.err" 2>&1 &
  local pid=$!
  for _ in $(seq 150); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
  ryb bench nccl all_reduce -b 1G -e 1G -g "$ngpu" -n 4000 >"$logs/agentsmi-nccl.txt" 2>&1 &
  local load=$!
  sleep 8
  : >"$f"
  for i in $(seq 30); do
    echo "== t $(date +%s.%N)" >>"$f"
    nvidia-smi --query-gpu=index,pci.bus_id,utilization.gpu,utilization.memory,memory.used,memory.reserved,memory.free,clocks.sm,clocks.mem,power.draw,temperature.gpu,temperature.memory,pcie.link.gen.current --format=csv,noheader,nounits | sed 's/^/smi /' >>"$f"
    curl -s "http://127.0.0.1:$port/metrics" | grep -E '^DCGM_FI_' | sed 's/^/metric /' >>"$f"
    sleep 1
  done
  kill "$load" 2>/dev/null; wait "$load" 2>/dev/null
  kill "$pid"; wait "$pid" 2>/dev/null
  echo "agent exit $? after SIGTERM" >>"$f"
}

# The agent's GPM ratios (DCGM_FI_PROF_*) beside nvidia-smi's own readings, 10 s idle then 30 s under an NCCL
# all-reduce: nvidia-smi dmon's utilisation (-s u) and its GPM metrics (--gpm-metrics: 1 graphics, 2 SM, 3 SM
# occupancy, 5 any tensor, 10 DRAM bandwidth, 11-13 FP64/32/16; percent, where the agent serves ratios), each line
# time-stamped, and each second the agent's PROF lines and nvidia-smi --query-gpu's utilisation.
phase_agentgpm() {
  local port=19413 f="$logs/agent-gpm.txt" pid dmon gpm load=""
  # shellcheck disable=SC2086
  "$java" -Xlog:disable -XX:+UseSerialGC $agent_flags -jar "$jar" agent --listen 127.0.0.1:$port --interval 1s \
    >"$logs/agentgpm-agent.err" 2>&1 &
  pid=$!
  for _ in $(seq 150); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
  nvidia-smi dmon -s u -o T -d 1 >"$logs/agentgpm-dmon.txt" 2>&1 &
  dmon=$!
  nvidia-smi dmon --gpm-metrics 1,2,3,5,10,11,12,13 -o T -d 1 >"$logs/agentgpm-dmon-gpm.txt" 2>&1 &
  gpm=$!
  : >"$f"
  for i in $(seq 40); do
    if [ "$i" -eq 11 ]; then
      ryb bench nccl all_reduce -b 1G -e 1G -g "$ngpu" -n 100000 >"$logs/agentgpm-nccl.txt" 2>&1 &
      load=$!
      echo "== load started" >>"$f"
    fi
    echo "== t $(date +%H:%M:%S)" >>"$f"
    nvidia-smi --query-gpu=index,utilization.gpu,utilization.memory --format=csv,noheader,nounits | sed 's/^/smi /' >>"$f"
    curl -s "http://127.0.0.1:$port/metrics" | grep -E '^DCGM_FI_(PROF_(GR|SM|PIPE|DRAM)|DEV_GPU_UTIL)' \
      | sed -E 's/\{.*gpu="([0-9]+)".*\}/ gpu=\1/; s/^/metric /' >>"$f"
    sleep 1
  done
  curl -s "http://127.0.0.1:$port/api/inventory" | grep -o '"profile"[^}]*}' | head -"$ngpu" >"$logs/agentgpm-profile.json"
  [ -n "$load" ] && { kill "$load" 2>/dev/null; wait "$load" 2>/dev/null; }
  kill "$dmon" "$gpm" 2>/dev/null; wait "$dmon" "$gpm" 2>/dev/null
  kill "$pid"; wait "$pid" 2>/dev/null
}

# The agent stopped by SIGTERM at a random moment of its sampling, under an NCCL load that makes NVML reads slow:
# every stop must exit 0 (a read left inside NVML while the exit handlers ran killed the JVM with SIGSEGV).
# AGENT_JAR: the jar to try (default: this build's); STOPS: how many stops (default 12).
phase_agentstop() {
  local port=19412 f="$logs/agent-stop.txt" j="${AGENT_JAR:-$jar}" i pid rc
  ryb bench nccl all_reduce -b 1G -e 1G -g "$ngpu" -n 100000 >"$logs/agentstop-nccl.txt" 2>&1 &
  local load=$!
  sleep 8
  for i in $(seq "${STOPS:-12}"); do
    # shellcheck disable=SC2086
    "$java" -Xlog:disable -XX:+UseSerialGC $agent_flags -XX:ErrorFile="$logs/hs_err_%p.log" -jar "$j" agent \
      --listen 127.0.0.1:$port --interval 1s >"$logs/agentstop-$i.err" 2>&1 &
    pid=$!
    for _ in $(seq 150); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
    sleep "$(( i % 3 )).$(( (i * 137) % 1000 ))"
    kill -TERM "$pid"; wait "$pid"; rc=$?
    echo "stop $i jar $(basename "$(dirname "$j")") exit $rc" >>"$f"
  done
  kill "$load" 2>/dev/null; wait "$load" 2>/dev/null
}

# the agent's footprint benchmark on this machine's quiet cores: the agent over the real H100 tree with the eight-GPU
# fake NVML beside Debian's node_exporter (carried xz-packed as .device/prometheus-node-exporter.xz), in one run.
# The agent starts as the package starts it: through the package's own launcher (src/package/railyard: its JVM flags
# and MALLOC_ARENA_MAX), pointed at this machine's runtime and the carried jar instead of /usr/lib/railyard.
package_launcher() {
  local lib=/tmp/railyard-lib
  mkdir -p "$lib" && ln -sfn "$rt/runtime" "$lib/runtime" && ln -sfn "$dev/app" "$lib/app"
  sed 's|^lib=/usr/lib/railyard$|lib='"$lib"'|' "$here/src/package/railyard" >"$lib/railyard" && chmod +x "$lib/railyard"
  grep -q "^lib=$lib\$" "$lib/railyard" || { echo "src/package/railyard no longer sets lib=/usr/lib/railyard" >&2; return 1; }
  echo "$lib/railyard"
}
phase_footprint() {
  [ -x "$dev/prometheus-node-exporter" ] || xz -dc "$dev/prometheus-node-exporter.xz" >"$dev/prometheus-node-exporter" && chmod +x "$dev/prometheus-node-exporter"
  local launcher; launcher="$(package_launcher)" || return
  RAILYARD_AGENT_CMD="$launcher" NODE_EXPORTER="$dev/prometheus-node-exporter" \
    bash "$here/scripts/agent-footprint.sh" 60 20 >"$logs/footprint.txt" 2>&1
  echo "rc=$?" >>"$logs/footprint.txt"
}

# RSS under 50 scrapes a second with slow clients (scripts/agent-soak.sh), the agent started as in phase_footprint.
# AGENT_SOAK_SECONDS defaults to 540 so that the phase fits one 10-minute command.
phase_agentsoak() {
  local launcher; launcher="$(package_launcher)" || return
  RAILYARD_AGENT_CMD="$launcher" bash "$here/scripts/agent-soak.sh" "${AGENT_SOAK_SECONDS:-540}" 50 >"$logs/agent-soak.txt" 2>&1
  echo "rc=$?" >>"$logs/agent-soak.txt"
}

# What this machine has for the namespace test cluster (sshd, ip, tc), and whether it may make network namespaces.
phase_tools() {
  { echo "PATH=$PATH"; cat /etc/os-release | head -2
    for t in ip tc sshd ssh ssh-keygen unshare python3 iperf3 sockperf; do
      echo "$t: $(command -v $t || ls /usr/sbin/$t /sbin/$t 2>/dev/null || echo missing)"; done
    unshare --net true && echo "unshare --net: ok"
    ldd /usr/sbin/sshd /usr/bin/ssh 2>&1 | grep -i "not found"
    ls /lib/x86_64-linux-gnu/ | grep -E "^lib(crypto|ssl|wrap|pam|audit|selinux|gssapi|krb5|bpf|elf|mnl|cap|tirpc|z|crypt|systemd)\.so" ; } >"$logs/tools.txt" 2>&1
}

# The lent machine has no sshd, ssh, ip or tc: Debian 12's binaries and the libraries they need (packed from the VM's
# own packages into .device/netbin.tar.xz, never committed) are unpacked under /opt and reached through small
# wrappers that set LD_LIBRARY_PATH for them alone; sshd's privilege separation user is made if missing.
phase_netbin() {
  local nb=/opt/railyard-netbin
  mkdir -p "$nb" && tar -C "$nb" -xJf "$dev/netbin.tar.xz"
  wrap() { printf '#!/bin/sh\nLD_LIBRARY_PATH=%s/lib exec %s/bin/%s "$@"\n' "$nb" "$nb" "$2" >"$1/$2"; chmod +x "$1/$2"; }
  [ -x /usr/sbin/sshd ] || wrap /usr/sbin sshd
  for t in ssh ssh-keygen ip tc; do command -v "$t" >/dev/null || wrap /usr/local/bin "$t"; done
  id sshd >/dev/null 2>&1 || useradd -r -M -d /run/sshd -s /usr/sbin/nologin sshd
  { ip -V; ssh -V; /usr/sbin/sshd -V; } >"$logs/netbin.txt" 2>&1
}

# validate's all-pairs sweep benchmark on this machine's cores (the VM has 2): 8 namespace hosts with their own sshd.
# No jlink or Maven here: ./railyard runs the carried jar (target/ made from .device/app, the runtime found as a JDK 25
# under /usr/lib/jvm), and the hosts run that same ./railyard through --railyard-path.
phase_sweep() {
  local f="$logs/sweep.txt"
  { for t in /usr/sbin/sshd ssh ssh-keygen ip tc python3; do command -v "$t" >/dev/null || echo "missing $t"; done; } >"$f"
  if [ -s "$f" ]; then echo "sweep not run" >>"$f"; return; fi
  mkdir -p "$here/target" && cp -r "$dev/app/railyard.jar" "$dev/app/lib" "$here/target/" && touch "$here/target/railyard.jar"
  [ -e /usr/lib/jvm/railyard-runtime-25 ] || { mkdir -p /usr/lib/jvm && ln -s "$rt/runtime" /usr/lib/jvm/railyard-runtime-25; }
  RY_SWEEP_RAILYARD_PATH="$here/railyard" bash "$here/scripts/validate-sweep-bench.sh" 8 "${SWEEP_REPS:-3}" >>"$f" 2>&1
  echo "rc=$?" >>"$f"
}

# JVM options against each other on the same jar, interleaved (ROUNDS, default 15): the AOT cache as ./railyard
# trains it; the same with reflection through native accessors (-Djdk.reflect.useNativeAccessorOnly=true, its own
# cache trained with it), which Jackson's and picocli's first reflective calls use; and railyard-a.jar (the previous
# code, its own cache) when present. Then -Xlog:startuptime and --timings, three runs of each.
phase_invflags() {
  local f="$logs/inventory-flags.txt" nat="$rt/railyard-native.aot" olda="$rt/railyard-a.aot" t line
  local base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1) native=-Djdk.reflect.useNativeAccessorOnly=true
  "$java" "${base[@]}" $native -XX:AOTCacheOutput="$nat" -jar "$jar" inventory --format json >/dev/null 2>&1
  [ -f "$dev/app/railyard-a.jar" ] && "$java" "${base[@]}" -XX:AOTCacheOutput="$olda" \
    -jar "$dev/app/railyard-a.jar" inventory --format json >/dev/null 2>&1
  echo "# wall ms: AOT as trained | native accessors | railyard-a.jar | nvidia-smi -q" >"$f"
  for i in $(seq "${ROUNDS:-15}"); do
    line="$i"
    t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache="$aot" -jar "$jar" inventory --format json >/dev/null 2>&1; line="$line $(ms "$t")"
    t=$(date +%s%N); "$java" "${base[@]}" $native -XX:AOTCache="$nat" -jar "$jar" inventory --format json >/dev/null 2>&1; line="$line $(ms "$t")"
    if [ -f "$olda" ]; then
      t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache="$olda" -jar "$dev/app/railyard-a.jar" inventory --format json >/dev/null 2>&1; line="$line $(ms "$t")"
    else line="$line -"; fi
    t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; echo "$line $(ms "$t")" >>"$f"
  done
  for v in trained native; do
    echo "== $v: -Xlog:startuptime, then --timings" >>"$f"
    for i in 1 2 3; do
      if [ $v = native ]; then set -- $native -XX:AOTCache="$nat"; else set -- -XX:AOTCache="$aot"; fi
      "$java" "${base[@]}" -Xlog:startuptime:stderr "$@" -jar "$jar" inventory --format json --timings 2>&1 >/dev/null \
        | grep -E "Create VM|JVM start|NVML|JSON|collect \(|picocli|total" >>"$f"
    done
  done
}

# This build against another (.device/app/railyard-a.jar, the same libs), each with its own AOT cache trained as
# ./railyard trains it, and nvidia-smi -q, interleaved; then --timings of this build, three runs. This build runs
# with ry's flags; railyard-a.jar with those ./railyard gave before short commands dropped hsperfdata
# (-XX:-UsePerfData).
phase_invab() {
  local f="$logs/inventory-ab.txt" olda="$rt/railyard-a.aot" t line
  local base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
  [ -f "$dev/app/railyard-a.jar" ] || { echo "no .device/app/railyard-a.jar" >"$f"; return; }
  "$java" "${base[@]}" -XX:AOTCacheOutput="$olda" -jar "$dev/app/railyard-a.jar" inventory --format json >/dev/null 2>&1
  echo "# wall ms: railyard.jar (AOT) | railyard-a.jar (AOT) | nvidia-smi -q" >"$f"
  for i in $(seq "${ROUNDS:-25}"); do
    line="$i"
    t=$(date +%s%N); ry inventory --format json >/dev/null 2>&1; line="$line $(ms "$t")"
    t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache="$olda" -jar "$dev/app/railyard-a.jar" inventory --format json >/dev/null 2>&1; line="$line $(ms "$t")"
    t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; echo "$line $(ms "$t")" >>"$f"
  done
  for i in 1 2 3; do
    echo "== railyard.jar --timings, run $i" >>"$f"
    ry inventory --format json --timings 2>>"$f" >/dev/null
  done
  ry inventory --format json >"$logs/inventory-ab-new.json" 2>/dev/null
  "$java" "${base[@]}" -XX:AOTCache="$olda" -jar "$dev/app/railyard-a.jar" inventory --format json >"$logs/inventory-ab-old.json" 2>/dev/null
}

# NVML's load and init split up (dlopen, lookups, the call shape, nvmlInit_v2, ...) by a probe compiled into
# .device/probe (not part of Railyard), three runs.
phase_nvmlprobe() {
  local flags=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 --enable-native-access=ALL-UNNAMED -cp "$dev/probe/nvml-probe.jar")
  "$java" "${flags[@]}" -XX:AOTCacheOutput=/tmp/nvml-probe.aot NvmlProbe >/dev/null 2>&1
  for i in 1 2 3; do echo "== run $i (AOT cache)"; "$java" "${flags[@]}" -XX:AOTCache=/tmp/nvml-probe.aot NvmlProbe; done >"$logs/nvml-probe.txt" 2>&1
}

# Where inventory's time goes (--timings on stderr), five runs, beside nvidia-smi -q.
phase_timings() {
  local f="$logs/inventory-timings.txt"
  for i in 1 2 3 4 5; do
    echo "== run $i" >>"$f"
    # RAILYARD_T0_NS as ./railyard exports it: the JVM's start-up measured from this shell's clock
    t=$(date +%s%N); RAILYARD_T0_NS=$t ry inventory --format json --timings >/dev/null 2>>"$f"; echo "railyard wall ms: $(ms "$t")" >>"$f"
    t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; echo "nvidia-smi -q wall ms: $(ms "$t")" >>"$f"
  done
}

# railyard burn beside gpu-burn (built from the public source scripts/prepare-gpu-machine.sh exported into
# .device/gpu-burn), the same precision (FP32, gpu-burn's default SGEMM) and the same duration, one after the other,
# with nvidia-smi's power.draw every second during each; then railyard burn in its own default precisions.
# BURN_SECONDS sets the duration (default 60).
phase_burn() {
  local d="${BURN_SECONDS:-60}" smi
  if [ -d "$dev/gpu-burn" ]; then
    rm -rf /tmp/gpu-burn && cp -r "$dev/gpu-burn" /tmp/gpu-burn
    (cd /tmp/gpu-burn && make CUDAPATH=/usr/local/cuda COMPUTE=90 >"$logs/gpu-burn-build.txt" 2>&1)
    echo "rc=$?" >>"$logs/gpu-burn-build.txt"
  fi
  watch_smi() {
    nvidia-smi --query-gpu=timestamp,index,power.draw,clocks.sm,temperature.gpu,temperature.memory,clocks_event_reasons.active \
      --format=csv,noheader -lms 1000 >"$1" 2>&1 &
    smi=$!
  }
  watch_smi "$logs/burn-fp32-smi.csv"
  t=$(date +%s%N); ryb burn --duration "${d}s" --precision fp32 --format json >"$logs/burn-fp32.json" 2>"$logs/burn-fp32.err"
  echo "rc=$? wall_ms=$(ms "$t")" >>"$logs/burn-fp32.err"; kill "$smi"
  if [ -x /tmp/gpu-burn/gpu_burn ]; then
    watch_smi "$logs/gpu-burn-smi.csv"
    t=$(date +%s%N); (cd /tmp/gpu-burn && ./gpu_burn "$d" >"$logs/gpu-burn.txt" 2>&1)
    echo "rc=$? wall_ms=$(ms "$t")" >>"$logs/gpu-burn.txt"; kill "$smi"
  fi
  watch_smi "$logs/burn-default-smi.csv"
  t=$(date +%s%N); ryb burn --duration "${d}s" >"$logs/burn-default.txt" 2>&1
  echo "rc=$? wall_ms=$(ms "$t")" >>"$logs/burn-default.txt"; kill "$smi"
}

# Burn's one-second sampling cost alone: one FP32 burn of BURN_SECONDS (default 20) whose JSON carries the sampling
# thread's CPU seconds over the run's wall seconds ("sampler"); the goal is under 1 % of one core.
phase_burnsample() {
  local d="${BURN_SECONDS:-20}" t
  t=$(date +%s%N); ryb burn --duration "${d}s" --precision fp32 --format json >"$logs/burnsample.json" 2>"$logs/burnsample.err"
  echo "rc=$? wall_ms=$(ms "$t")" >>"$logs/burnsample.err"
  { grep -o '"sampler" *: *{[^}]*}' "$logs/burnsample.json"
    grep -o '"peakWatts" *: *{[^}]*}' "$logs/burnsample.json"; } >"$logs/burnsample.txt"
}

# validate end to end with burn first and a soak after the benchmarks, this machine as a one-node cluster:
# nodes (railyard burn on every GPU for SOAK_BURN_SECONDS, default 30), then the fabric (NCCL all_reduce repeated for
# SOAK_SECONDS, default 60). The report directory lands in the logs.
phase_soak() {
  (cd "$logs" && ryb validate --no-history --burn "${SOAK_BURN_SECONDS:-30}s" --soak "${SOAK_SECONDS:-60}s" \
     --out "$logs/soak-report" >"$logs/soak.txt" 2>"$logs/soak.err"; echo "exit $?" >>"$logs/soak.txt")
}

for p in "$@"; do
  start=$(date +%s%N)
  "phase_$p"
  echo "phase $p: $(ms "$start") ms" | tee -a "$logs/phases.txt"
done
tar -C "$out" -czf "$out/results.tgz" logs && rm -rf "$logs"
