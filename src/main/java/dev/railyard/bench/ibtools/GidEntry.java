package dev.railyard.bench.ibtools;

/** One show_gids row. ipv4 is empty for link-local GIDs; version is "v1" or "v2" (RoCE), netdev the interface. */
public record GidEntry(String device, int port, int index, String gid, String ipv4, String version, String netdev) {}
