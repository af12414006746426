#!/usr/bin/env bash
# throwaway experiment (not in git): NVML shutdown skipped, halt instead of exit, against HEAD and nvidia-smi -q
set -uo pipefail
export NCCL_NVLS_ENABLE=0
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1)
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/x.aot -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
echo "# head | x noShutdown | x halt | x both | nvidia-smi -q | head --version" >"$f"
for i in $(seq ${ROUNDS:-25}); do
  l="$i"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.noShutdown=true -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.halt=true -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.halt=true -Drailyard.x.noShutdown=true -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot -jar "$dev/app/railyard.jar" --version >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
for i in 1 2 3; do "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.noShutdown=true -Drailyard.x.halt=true -jar "$dev/app/railyard-x.jar" inventory --format json --timings 2>>"$f" >/dev/null; done
"$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.noShutdown=true -Drailyard.x.halt=true -jar "$dev/app/railyard-x.jar" inventory --format json >"$out/x.json"; echo "rc=$?" >>"$f"
cat "$f"
