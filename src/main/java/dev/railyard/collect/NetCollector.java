package dev.railyard.collect;

import dev.railyard.model.NetInterface;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** Interfaces from sys/class/net, with addresses and the RDMA ports they carry. */
public final class NetCollector implements Collector<List<NetInterface>> {
    @Override
    public List<NetInterface> collect(HostRoot root) {
        return List.of(); // TODO(helper: rdma+net)
    }
}
