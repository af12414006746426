package dev.railyard.collect;

import dev.railyard.model.HostInfo.NvmeDevice;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.util.ArrayList;
import java.util.List;

/** NVMe controllers from sys/class/nvme: identity, transport, PCI function and namespace capacity. */
public final class NvmeCollector implements Collector<List<NvmeDevice>> {

    /** Block device sizes in sysfs are in 512-byte sectors whatever the namespace's logical block size. */
    private static final long SECTOR = 512;

    @Override
    public List<NvmeDevice> collect(HostRoot root) {
        List<NvmeDevice> out = new ArrayList<>();
        for (String name : root.list("sys/class/nvme")) {
            String dir = "sys/class/nvme/" + name;
            out.add(new NvmeDevice(name, root.read(dir + "/model"), root.read(dir + "/serial"),
                    root.read(dir + "/firmware_rev"), root.read(dir + "/transport"), pciAddress(root, dir),
                    size(root, dir, name)));
        }
        return out;
    }

    /** Fabrics controllers (tcp, rdma, fc) have no PCI function behind their device link. */
    private static Reading<String> pciAddress(HostRoot root, String dir) {
        Reading<String> link = root.linkName(dir + "/device");
        if (link instanceof Reading.Present<String>(String target) && !PciAddress.isFunction(target)) {
            return Reading.absent("not a PCIe controller (device is " + target + ")");
        }
        return link;
    }

    /** Sum over the controller's namespaces (nvme0n1, or nvme0c0n1 under native multipath). */
    private static Reading<Long> size(HostRoot root, String dir, String name) {
        long total = 0;
        int namespaces = 0;
        for (String child : root.list(dir)) {
            if (!child.startsWith(name) || !child.matches("nvme[0-9]+(c[0-9]+)?n[0-9]+")) continue;
            // sectors of 512 bytes: the bound keeps the byte count below Long.MAX_VALUE, so no sum overflows into a lie
            Reading<Long> sectors = root.readLong(dir + "/" + child + "/size", 0, Long.MAX_VALUE / SECTOR / 1024);
            if (sectors instanceof Reading.Failed<Long> f) return f;
            if (sectors instanceof Reading.Present<Long>(Long s)) {
                total += s * SECTOR;
                namespaces++;
            }
        }
        return namespaces == 0 ? Reading.absent("no namespace with a size under " + dir) : Reading.of(total);
    }
}
