package dev.railyard.bench.fio;

/**
 * One direction of a "Run status group" summary in fio's text output: fio 3's "READ: bw=51.1MiB/s … io=128MiB"
 * or fio 1.x/2.x's "READ: io=…, aggrb=…KB/s".
 */
public record FioGroup(int group, String direction, double mebibytesPerSecond, long ioBytes) {}
