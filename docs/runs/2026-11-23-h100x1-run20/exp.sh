#!/usr/bin/env bash
# throwaway experiment (not in git as code): a scratch build of 292e678 (railyard-x.jar) with switches:
#   -Drailyard.x.lateShutdown  nvmlShutdown on its own thread after the readings are handed on, joined before exit
#   -Drailyard.x.parallel      one GPU's reads split over two threads, system() on a third
#   -Drailyard.x.warm          the reads rehearsed (calls checked, nothing called) on a thread beside nvmlInit_v2
# against 292e678 (railyard.jar) and nvidia-smi -q; "all+noperf" is the three with -XX:-UsePerfData
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
all=(-Drailyard.x.warm=true -Drailyard.x.parallel=true -Drailyard.x.lateShutdown=true)
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1
"$java" "${base[@]}" "${all[@]}" -XX:AOTCacheOutput=/tmp/x.aot -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
nvidia-smi -L >"$f"
echo "# head | x none | x late | x parallel | x warm | x all+noperf | nvidia-smi -q" >>"$f"
x() { "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot "$@" -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; }
for i in $(seq ${ROUNDS:-25}); do
  l="$i"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); x; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.lateShutdown=true; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.parallel=true; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.warm=true; l="$l $(ms $t)"
  t=$(date +%s%N); x "${all[@]}" -XX:-UsePerfData; l="$l $(ms $t)"
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
for i in 1 2 3; do echo "== head --timings" >>"$f"; "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json --timings 2>>"$f" >/dev/null; done
for i in 1 2 3; do echo "== x all --timings" >>"$f"; "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot "${all[@]}" -XX:-UsePerfData -jar "$dev/app/railyard-x.jar" inventory --format json --timings 2>>"$f" >/dev/null; done
"$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json 2>/dev/null | grep -v takenAt >"$out/h.json"
"$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot "${all[@]}" -jar "$dev/app/railyard-x.jar" inventory --format json 2>/dev/null | grep -v takenAt >"$out/x.json"
cmp "$out/h.json" "$out/x.json" >>"$f" 2>&1 && echo "json: same" >>"$f"
