# Sourced by the agent's benchmarks: agent_tree DIR makes DIR/root, the real gpud H100 capture (8 ConnectX-7 NDR
# ports + a BlueField bond) with lid/sm_lid on the IB ports and a hostname, and DIR/libnvidia-ml.so.1, the
# eight-GPU fake NVML (src/test/c/fake_nvml.c).
agent_tree() {
  local work="$1" here port
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  cp -a "$here/src/test/resources/sysfs/gpud-h100" "$work/root"
  for port in "$work"/root/sys/class/infiniband/*/ports/1; do
    if [ "$(tr -d '\n' <"$port/link_layer")" = InfiniBand ]; then echo 0x5 >"$port/lid"; echo 0x1 >"$port/sm_lid"; fi
  done
  mkdir -p "$work/root/proc/sys/kernel" "$work/root/railyard"
  echo n1 >"$work/root/proc/sys/kernel/hostname"
  echo "[    0.000000] Linux version 6.8.0" >"$work/root/railyard/dmesg.txt"
  gcc -Wall -Wextra -Werror -shared -fPIC -DFAKE_NVML_EIGHT_GPUS -o "$work/libnvidia-ml.so.1" "$here/src/test/c/fake_nvml.c"
}
