#!/usr/bin/env bash
# throwaway experiment 6 (not in git as code): nvmlErrorString's handle built beside the rehearsal
# (-Drailyard.x.errorString=true) against the same jar without, and nvidia-smi -q: on a GPU where every field
# answers, the handle is never used, so this measures only what building it beside costs
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData)
"$java" "${base[@]}" -Drailyard.x.errorString=true -XX:AOTCacheOutput=/tmp/x.aot -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
nvidia-smi -L >"$f"
echo "# without | with the handle built beside | nvidia-smi -q" >>"$f"
for i in $(seq ${ROUNDS:-40}); do
  l="$i"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -XX:AOTCache=/tmp/x.aot -Drailyard.x.errorString=true -jar "$dev/app/railyard-x.jar" inventory --format json >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
python3 - "$f" <<'PY' >>"$f" 2>&1 || true
import sys, statistics
rows=[list(map(int,l.split()[1:])) for l in open(sys.argv[1]) if l[0].isdigit() and len(l.split())==4]
for j,n in enumerate("without with smi".split()):
    c=[r[j] for r in rows]; print(f"{n:8s} median {statistics.median(c):6.1f} min {min(c)} mean {statistics.mean(c):6.1f}")
PY
tail -3 "$f"
