package dev.railyard.model;

import java.util.OptionalInt;

/** One "#  Rank 0 Group 0 Pid 28616 on host device 0 [0000:8f:00] NVIDIA B200" line (old layout: no Group). */
public record NcclRankDevice(int rank, OptionalInt group, long pid, String host, int device, String busId,
                             String name) {}
