package dev.railyard.collect;

import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** PCI functions from sys/bus/pci/devices: ids, class, driver, NUMA node, link, and the bridges above each. */
public final class PciCollector implements Collector<List<PciDevice>> {

    private static final String DEVICES = "sys/bus/pci/devices";

    @Override
    public List<PciDevice> collect(HostRoot root) {
        // About ten small sysfs reads per function and hundreds of functions on a GPU node: spread them over cores.
        return root.list(DEVICES).parallelStream().map(name -> device(root, name)).toList();
    }

    private PciDevice device(HostRoot root, String address) {
        String dir = DEVICES + "/" + address;
        return new PciDevice(address, id(root, dir + "/vendor"), id(root, dir + "/device"), id(root, dir + "/class"),
                driver(root, dir), numaNode(root, dir), link(root, dir), upstreamPath(root, dir),
                root.exists(dir + "/physfn"));
    }

    /** Unreadable ids become -1, which matches no vendor or class, so the device is kept but never classified. */
    private static int id(HostRoot root, String file) {
        return root.readLong(file).orElse(-1L).intValue();
    }

    private static Reading<String> driver(HostRoot root, String dir) {
        Reading<String> name = root.linkName(dir + "/driver");
        return name instanceof Reading.Absent<String> ? Reading.absent("no driver bound") : name;
    }

    private static Reading<Integer> numaNode(HostRoot root, String dir) {
        Reading<Integer> node = root.readInt(dir + "/numa_node");
        if (node instanceof Reading.Present<Integer>(Integer n) && n < 0) {
            return Reading.absent("no NUMA affinity reported");
        }
        return node;
    }

    private static Reading<PcieLink> link(HostRoot root, String dir) {
        Reading<String> speed = root.read(dir + "/current_link_speed");
        String current;
        switch (speed) {
            case Reading.Present<String>(String s) -> current = s;
            case Reading.Absent<String> a -> {
                return Reading.absent("no PCIe link attributes (conventional PCI or virtual function)");
            }
            case Reading.Failed<String>(String path, String cause) -> {
                return Reading.failed(path, cause);
            }
        }
        Reading<String> max = root.read(dir + "/max_link_speed");
        Reading<Integer> width = root.readInt(dir + "/current_link_width");
        Reading<Integer> maxWidth = root.readInt(dir + "/max_link_width");
        if (current.startsWith("Unknown") || max.orElse("Unknown").startsWith("Unknown")) {
            return Reading.absent("link speed reported as Unknown");
        }
        int currentGen = PcieLink.generationOf(current);
        int maxGen = PcieLink.generationOf(max.orElse(""));
        if (currentGen == 0 || maxGen == 0) {
            return Reading.failed(dir + "/current_link_speed", "unrecognised speed \"" + current + "\" / \""
                    + max.orElse("") + "\"");
        }
        if (!width.isPresent() || !maxWidth.isPresent()) {
            return Reading.failed(dir + "/current_link_width", "link width unreadable: " + width.describe());
        }
        return Reading.of(new PcieLink(currentGen, maxGen, width.orElse(0), maxWidth.orElse(0)));
    }

    /**
     * The bridges above the device, host bridge first. The bus/pci/devices entry is a symlink into sys/devices;
     * resolving it textually avoids one realpath walk per device (hundreds on a GPU node).
     */
    static List<String> upstreamPath(HostRoot root, String dir) {
        Reading<String> target = root.readLink(dir);
        String real = target instanceof Reading.Present<String>(String t)
                ? Path.of(DEVICES).resolve(t).normalize().toString()
                : root.realPath(dir).orElse("");
        String[] parts = real.split("/");
        int start = -1;
        for (int i = 0; i < parts.length - 1; i++) {
            if (PciAddress.isHostBridge(parts[i])) start = i;
        }
        if (start < 0) return List.of();
        List<String> path = new ArrayList<>(parts.length - start - 1);
        for (int i = start; i < parts.length - 1; i++) path.add(parts[i]);
        return path;
    }
}
