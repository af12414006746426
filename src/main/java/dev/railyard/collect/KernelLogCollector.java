package dev.railyard.collect;

import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** NVIDIA Xid events from the kernel log (live: /dev/kmsg without blocking; captured: the saved dmesg). */
public final class KernelLogCollector implements Collector<Reading<List<XidEvent>>> {
    @Override
    public Reading<List<XidEvent>> collect(HostRoot root) {
        return Reading.absent("kernel log not read yet"); // TODO(helper: checks)
    }
}
