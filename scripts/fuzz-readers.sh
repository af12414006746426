#!/usr/bin/env bash
# The reader mutation fuzzer at benchmark size: seeded mutants of the eight real node trees of the test
# corpus (random bytes, empty, huge, non-UTF-8, out-of-range numbers, "N/A", deleted, directory, FIFO, symlink loop,
# dangling and escaping symlinks), each run through every collector, node check and report. CI runs 240 mutants;
# this runs as many as asked, once per seed, and prints the fuzzer's summary line (mutants, time, violations).
#
#   scripts/fuzz-readers.sh [--mutants N] [--seeds "S1 S2 ..."]
#
# Exit status: 0 when every seed's run held the oracle, 1 when one did not (its violations are printed).
set -euo pipefail

mutants=2400
seeds="13"
while [ $# -gt 0 ]; do
  case "$1" in
    --mutants) mutants="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    *) echo "usage: $0 [--mutants N] [--seeds \"S1 S2 ...\"]" >&2; exit 2 ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-java.sh"
JAVA_HOME="$(railyard_find_java)"
export JAVA_HOME
command -v mvn >/dev/null || { echo "missing mvn: apt-get install maven" >&2; exit 3; }

status=0
for seed in $seeds; do
  log="$(mktemp)"
  if (cd "$here" && mvn -B -q -o test -Dtest=ReaderMutationFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
        -Drailyard.fuzz.mutants="$mutants" -Drailyard.fuzz.seed="$seed") >"$log" 2>&1; then
    grep -h "reader mutation fuzz:" "$log" || true
  else
    grep -h "reader mutation fuzz:" "$log" || true
    grep -hE '^\s+"|Expecting empty' "$log" | sort -u || tail -n 40 "$log"
    status=1
  fi
  rm -f "$log"
done
exit "$status"
