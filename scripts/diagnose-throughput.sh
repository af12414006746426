#!/usr/bin/env bash
# diagnose's speed on large text, side by side with grep over the same files (docs/benchmarks.md).
# Generates a 50 MB healthy dmesg-style log (654k lines) and 30 MB of text on one line, then times each three
# times: wall and CPU seconds, each with the 1-minute load average before it (the build machine is shared).
# Usage: scripts/diagnose-throughput.sh [workdir]   (RUNS=5 for five runs each)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$(mktemp -d)}"
mkdir -p "$dir"
awk -v target=52428800 'BEGIN {
  n = split("mlx5_core 0000:3b:00.0: firmware version: 28.39.1002|pci 0000:3b:00.0: [15b3:1021] type 00 class 0x020000|EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.|nvidia-nvswitch2: using MSI|audit: type=1400 audit(1700000000.123:42): apparmor=\"STATUS\" operation=\"profile_load\" name=\"snap.lxd\"|IPv6: ADDRCONF(NETDEV_CHANGE): ib0: link becomes ready|systemd-journald[512]: Received client request to flush runtime journal.|NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15|usb 1-1: new high-speed USB device number 2 using xhci_hcd|mlx5_core 0000:3b:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)", msg, "|");
  t = 0; bytes = 0; i = 0;
  while (bytes < target) { t += 0.000137; line = sprintf("[%12.6f] %s", t, msg[(i % n) + 1]); print line; bytes += length(line) + 1; i++ }
}' > "$dir/dmesg-50m.txt"
# the same size of log with faults that repeat: three GPUs' Xid lines, a NIC watchdog and AER, 5 in every 300 lines
awk -v target=54525952 'BEGIN {
  n = split("mlx5_core 0000:3b:00.0: firmware version: 28.39.1002|pci 0000:3b:00.0: [15b3:1021] type 00 class 0x020000|EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.|nvidia-nvswitch2: using MSI|audit: type=1400 audit(1700000000.123:42): apparmor=\"STATUS\" operation=\"profile_load\" name=\"snap.lxd\"|IPv6: ADDRCONF(NETDEV_CHANGE): ib0: link becomes ready|systemd-journald[512]: Received client request to flush runtime journal.|NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.54.15|usb 1-1: new high-speed USB device number 2 using xhci_hcd|mlx5_core 0000:3b:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)|NVRM: Xid (PCI:0000:1b:00): 79, pid=1234, name=python3, GPU has fallen off the bus.|NVRM: Xid (PCI:0000:3b:00): 48, pid=1234, name=python3, Ch 00000001, DBE (0x00000002)|NVRM: Xid (PCI:0000:5b:00): 13, pid=2345, name=python3, Graphics Exception: ESR 0x404600=0x80000001|r8125 0000:22:04.0 eth4: NETDEV WATCHDOG: CPU: 3: transmit queue 0 timed out 5010 ms|pcieport 0000:00:1d.0: AER: Correctable error message received from 0000:06:00.0", msg, "|");
  t = 0; bytes = 0; i = 0;
  while (bytes < target) { t += 0.000137; k = (i % 300 < 5) ? 11 + (i % 5) : (i % 10) + 1; line = sprintf("[%12.6f] %s", t, msg[k]); print line; bytes += length(line) + 1; i++ }
}' > "$dir/dmesg-faults-52m.txt"
head -c 23592960 /dev/urandom | base64 -w0 | head -c 31457280 > "$dir/one-line-30m.txt"
pattern='NVRM: Xid|mlx5_core .*Link|fallen off the bus|EDAC .*(CE|UE)|PCIe Bus Error|RmInitAdapter|probe of .* failed'
for f in dmesg-50m.txt dmesg-faults-52m.txt one-line-30m.txt; do
  size=$(stat -c %s "$dir/$f")
  for run in $(seq "${RUNS:-3}"); do
    load="load $(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "$f $size B  grep -cE       $load  %e s wall  %U+%S s cpu  %M KB" grep -cE "$pattern" "$dir/$f" >/dev/null || true
    load="load $(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "$f $size B  railyard diagnose $load  %e s wall  %U+%S s cpu  %M KB" "$here/railyard" diagnose "$dir/$f" >/dev/null || true
    load="load $(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f "$f $size B  railyard diagnose --format json $load  %e s wall  %U+%S s cpu  %M KB" "$here/railyard" diagnose --format json "$dir/$f" >/dev/null || true
  done
done 2>&1 | grep -v '^railyard:\|^  hint:'
