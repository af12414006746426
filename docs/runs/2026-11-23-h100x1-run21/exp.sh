#!/usr/bin/env bash
# throwaway experiment 2 (not in git as code): the scratch build of run 20 with two more switches:
#   -Drailyard.x.warmEarly  the rehearsal started before Linker.nativeLinker() instead of before nvmlInit_v2
#   -Drailyard.x.noCount    no nvmlDeviceGetCount_v2: handles by index until NVML_ERROR_INVALID_ARGUMENT
# "kept" = warm + lateShutdown + -XX:-UsePerfData; also -Xint, and a hello world (its own AOT cache) for the JVM's floor
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
kept=(-Drailyard.x.warm=true -Drailyard.x.lateShutdown=true -XX:-UsePerfData)
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1
"$java" "${base[@]}" -Drailyard.x.warm=true -Drailyard.x.lateShutdown=true -Drailyard.x.warmEarly=true -XX:AOTCacheOutput=/tmp/x.aot -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/hw.aot -cp "$dev/probe/h.jar" H >/dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
nvidia-smi -L >"$f"
echo "# head | kept (warm late noperf) | kept+warmEarly(no late warm) | kept+noCount | kept -Xint | hello | nvidia-smi -q" >>"$f"
x() { "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot "$@" -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; }
for i in $(seq ${ROUNDS:-25}); do
  l="$i"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); x "${kept[@]}"; l="$l $(ms $t)"
  t=$(date +%s%N); x -Drailyard.x.warmEarly=true -Drailyard.x.lateShutdown=true -XX:-UsePerfData; l="$l $(ms $t)"
  t=$(date +%s%N); x "${kept[@]}" -Drailyard.x.noCount=true; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" -Xlog:disable -Xlog:all=off -XX:+UseSerialGC -Xint -XX:AOTCache=/tmp/x.aot "${kept[@]}" -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/hw.aot -cp "$dev/probe/h.jar" H >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
