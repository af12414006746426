#!/usr/bin/env bash
# throwaway experiment 4 (not in git as code): JVM flags on this build: the AOT cache mapped where it asks to be
# (-XX:ArchiveRelocationMode=0, no relocation pass over the archive) and a small initial heap (-Xms16m: a smaller
# card table to clear), against ry's flags and nvidia-smi -q; page faults of each from /usr/bin/time when present
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dev="$(pwd)/.device"; out="${OUT:-/tmp/out}"; mkdir -p "$out"
rt=/tmp/railyard-runtime
[ -x "$rt/runtime/bin/java" ] || { mkdir -p "$rt" && tar -C "$rt" -xJf "$dev/railyard-runtime.tar.xz"; }
java="$rt/runtime/bin/java"
base=(-Xlog:disable -Xlog:all=off -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData)
norel=(-XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0)
"$java" "${base[@]}" -XX:AOTCacheOutput=/tmp/h.aot -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
f="$out/exp.txt"
nvidia-smi -L >"$f"; grep -m1 'model name' /proc/cpuinfo >>"$f"; free -g | head -2 >>"$f"
r() { "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot "$@" -jar "$dev/app/railyard.jar" inventory --format json >/dev/null 2>&1; }
echo "# ry | norelocation | Xms16m | both | nvidia-smi -q | java -version (ry flags, no cache) | same, both" >>"$f"
for i in $(seq ${ROUNDS:-30}); do
  l="$i"
  t=$(date +%s%N); r; l="$l $(ms $t)"
  t=$(date +%s%N); r "${norel[@]}"; l="$l $(ms $t)"
  t=$(date +%s%N); r -Xms16m; l="$l $(ms $t)"
  t=$(date +%s%N); r "${norel[@]}" -Xms16m; l="$l $(ms $t)"
  t=$(date +%s%N); nvidia-smi -q >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" -version >/dev/null 2>&1; l="$l $(ms $t)"
  t=$(date +%s%N); "$java" "${base[@]}" "${norel[@]}" -Xms16m -version >/dev/null 2>&1; l="$l $(ms $t)"
  echo "$l" >>"$f"
done
python3 - "$f" <<'PY' >>"$f" 2>&1 || true
import sys, statistics
rows=[list(map(int,l.split()[1:])) for l in open(sys.argv[1]) if l[0].isdigit() and len(l.split())==8]
names="ry norelocation Xms16m both smi version version-both".split()
for j,n in enumerate(names):
    c=[r[j] for r in rows]; print(f"{n:14s} median {statistics.median(c):6.1f} min {min(c)} mean {statistics.mean(c):6.1f}")
PY
if command -v /usr/bin/time >/dev/null; then for v in none both; do
  if [ $v = none ]; then set --; else set -- "${norel[@]}" -Xms16m; fi
  /usr/bin/time -v "$java" "${base[@]}" -XX:AOTCache=/tmp/h.aot "$@" -jar "$dev/app/railyard.jar" inventory --format json 2>&1 >/dev/null | grep -E 'Minor|Maximum resident' | sed "s/^/$v: /" >>"$f"
done; fi
tail -12 "$f"
