package dev.railyard.collect;

import dev.railyard.platform.HostRoot;

/** Reads one area of a node (PCI, RDMA, network, host) from a root; never throws for a missing subsystem. */
public interface Collector<T> {
    T collect(HostRoot root);
}
