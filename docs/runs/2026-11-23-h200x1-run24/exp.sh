#!/usr/bin/env bash
# throwaway experiment 3 (not in git): reads split over two threads with system() beside; the class-file writer
# warmed on a side thread; against this build and nvidia-smi -q
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData)
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1
"$java" "${base[@]}" -Drailyard.x.parallel=true -Drailyard.x.cfwarm=true -XX:AOTCacheOutput=/tmp/x.aot -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
nvidia-smi -L >"$f"; grep -m1 'model name' /proc/cpuinfo >>"$f"
echo "# head | x none | x parallel | x cfwarm | x both | nvidia-smi -q" >>"$f"
x() { "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot "$@" -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; }
for i in $(seq ${ROUNDS:-30}); do
  l="$i"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); x; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.parallel=true; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.cfwarm=true; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.parallel=true -Drailyard.x.cfwarm=true; l="$l $(ms $t)"
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
for i in 1 2; do echo "== x both --timings" >>"$f"; t=$(date +%s%N); RAILYARD_T0_NS=$t "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.parallel=true -Drailyard.x.cfwarm=true -jar "$dev/app/railyard-x.jar" inventory --format json --timings 2>>"$f" >/dev/null; done
python3 - "$f" <<'PY' >>"$f" 2>&1 || true
import sys, statistics
rows=[list(map(int,l.split()[1:])) for l in open(sys.argv[1]) if l[0].isdigit() and len(l.split())==7]
names="head none parallel cfwarm both smi".split()
for j,n in enumerate(names):
    c=[r[j] for r in rows]; print(f"{n:12s} median {statistics.median(c):6.1f} min {min(c)} mean {statistics.mean(c):6.1f}")
PY
tail -6 "$f"
