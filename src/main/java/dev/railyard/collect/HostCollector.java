package dev.railyard.collect;

import dev.railyard.model.HostInfo;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.util.List;

/** OS, kernel, memlock, socket buffers, CPU governors, watched modules and NVMe devices. */
public final class HostCollector implements Collector<HostInfo> {
    @Override
    public HostInfo collect(HostRoot root) {
        Reading<String> todo = Reading.absent("not collected yet");
        return new HostInfo(todo, todo, Reading.absent("todo"), Reading.absent("todo"), Reading.absent("todo"),
                Reading.absent("todo"), Reading.absent("todo"), List.of()); // TODO(helper: pci+topology+host)
    }
}
