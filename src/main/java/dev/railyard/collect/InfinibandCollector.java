package dev.railyard.collect;

import dev.railyard.model.RdmaDevice;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** RDMA devices and ports from sys/class/infiniband. */
public final class InfinibandCollector implements Collector<List<RdmaDevice>> {
    @Override
    public List<RdmaDevice> collect(HostRoot root) {
        return List.of(); // TODO(helper: rdma+net)
    }
}
