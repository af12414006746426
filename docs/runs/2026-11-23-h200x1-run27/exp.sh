#!/usr/bin/env bash
# throwaway experiment 5 (not in git as code): this build (the JSON rehearsed on the inventory without its GPUs while
# NVML is read) against the build before it (railyard-a.jar), same flags, and nvidia-smi -q
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData)
for v in "" -a; do "$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/r$v.aot -jar "$dev/app/railyard$v.jar" inventory --format json >/dev/null 2>&1; done
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
nvidia-smi -L >"$f"; grep -m1 'model name' /proc/cpuinfo >>"$f"
echo "# this build | build before | nvidia-smi -q" >>"$f"
for i in $(seq ${ROUNDS:-40}); do
  l="$i"
  for v in "" -a; do t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/r$v.aot -jar "$dev/app/railyard$v.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"; done
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
for i in 1 2 3; do echo "== this build --timings" >>"$f"; t=$(date +%s%N); RAILYARD_T0_NS=$t "$java" "${base[@]}" -XX:AOTCache=/tmp/r.aot -jar "$dev/app/railyard.jar" inventory --format json --timings 2>>"$f" >/dev/null; done
python3 - "$f" <<'PY' >>"$f" 2>&1 || true
import sys, statistics
rows=[list(map(int,l.split()[1:])) for l in open(sys.argv[1]) if l[0].isdigit() and len(l.split())==4]
for j,n in enumerate("new before smi".split()):
    c=[r[j] for r in rows]; print(f"{n:8s} median {statistics.median(c):6.1f} min {min(c)} mean {statistics.mean(c):6.1f}")
PY
tail -3 "$f"
