package dev.railyard.bench.ibtools;

/**
 * A kernel-log link change from mlx5_core: RDMA port state ("mlx5_5: Port: 1 Link INIT") or netdev carrier
 * ("enp157s0f1np1: Link down"). port is 0 for netdev lines.
 */
public record LinkEvent(String timestamp, String pciAddress, String device, int port, String state, int lineNumber,
                        String line) {}
