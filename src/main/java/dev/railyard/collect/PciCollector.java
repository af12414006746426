package dev.railyard.collect;

import dev.railyard.model.PciDevice;
import dev.railyard.model.PcieLink;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;
import dev.railyard.platform.HostRoot;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** PCI functions from sys/bus/pci/devices: ids, class, driver, NUMA node, link, and the bridges above each. */
public final class PciCollector implements Collector<List<PciDevice>> {

    private static final String DEVICES = "sys/bus/pci/devices";
    /** CONFIG_NODES_SHIFT is at most 10. */
    private static final int MAX_NUMA_NODE = 1023;
    /** The widths a PCIe link can train to (x32 exists in the spec, not in practice). */
    private static final Set<Integer> WIDTHS = Set.of(1, 2, 4, 8, 12, 16, 32);
    /** "8.0 GT/s PCIe" (5.x kernels and later), "8 GT/s" (older ones). */
    private static final Pattern SPEED = Pattern.compile("(2\\.5|5|5\\.0|8|8\\.0|16|16\\.0|32|32\\.0|64|64\\.0) GT/s(?: PCIe)?");

    @Override
    public List<PciDevice> collect(HostRoot root) {
        // About ten small sysfs reads per function and hundreds of functions on a GPU node: spread them over cores.
        return root.list(DEVICES).parallelStream().map(name -> device(root, name)).toList();
    }

    private PciDevice device(HostRoot root, String address) {
        String dir = DEVICES + "/" + address;
        List<String> unreadable = new ArrayList<>();
        int vendor = id(root, dir + "/vendor", 0xffff, unreadable);
        int device = id(root, dir + "/device", 0xffff, unreadable);
        int classCode = id(root, dir + "/class", 0xffffff, unreadable);
        return new PciDevice(address, vendor, device, classCode, driver(root, dir), numaNode(root, dir), link(root, dir),
                upstreamPath(root, dir), root.exists(dir + "/physfn"), unreadable);
    }

    /**
     * Unreadable ids become -1, which matches no vendor or class, and the reason is kept with the device so that
     * the GPU list can still count a function it cannot classify.
     */
    private static int id(HostRoot root, String file, int max, List<String> unreadable) {
        // sysfs prints ids at full width ("0x10de", "0x030200"): anything else is a garbled or cut read, and a cut
        // class code ("0x0302" of a 3D controller's 0x030200) would silently drop a GPU from the count
        int digits = max == 0xffff ? 4 : 6;
        Reading<String> text = root.read(file);
        Reading<Integer> id = switch (text) {
            case Reading.Present<String>(String t) when t.matches("0x[0-9a-fA-F]{" + digits + "}") ->
                    Reading.of(Integer.parseInt(t.substring(2), 16));
            case Reading.Present<String>(String t) -> Reading.failed(file, "not a " + digits + "-digit PCI id: " + ValueText.quote(t));
            default -> text.map(t -> 0);
        };
        if (!(id instanceof Reading.Present<Integer>(Integer v))) {
            unreadable.add(id instanceof Reading.Failed<Integer>(String path, String cause) ? path + ": " + cause
                    : file + ": missing");
            return -1;
        }
        return v;
    }

    private static Reading<String> driver(HostRoot root, String dir) {
        Reading<String> name = root.linkName(dir + "/driver");
        return name instanceof Reading.Absent<String> ? Reading.absent("no driver bound") : name;
    }

    private static Reading<Integer> numaNode(HostRoot root, String dir) {
        Reading<Integer> node = root.readInt(dir + "/numa_node", -1, MAX_NUMA_NODE);
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
                return Reading.absent("no " + dir + "/current_link_speed (conventional PCI or virtual function)");
            }
            case Reading.Failed<String>(String path, String cause) -> {
                return Reading.failed(path, cause);
            }
        }
        Reading<String> max = root.read(dir + "/max_link_speed");
        if (isUnknownSpeed(current) || max instanceof Reading.Present<String>(String m) && isUnknownSpeed(m)) {
            return Reading.absent("link speed reported as Unknown");
        }
        if (!(max instanceof Reading.Present<String>(String maxSpeed))) {
            return max instanceof Reading.Failed<String>(String path, String cause) ? Reading.failed(path, cause)
                    : Reading.failed(dir + "/max_link_speed", "missing beside current_link_speed");
        }
        for (String[] s : new String[][]{{"current_link_speed", current}, {"max_link_speed", maxSpeed}}) {
            if (!SPEED.matcher(s[1]).matches()) return Reading.failed(dir + "/" + s[0], "not a PCIe speed: " + ValueText.quote(s[1]));
        }
        // a link that is down trains to width 0; a maximum of 0 or -1 is no capability at all
        Reading<Integer> width = root.readInt(dir + "/current_link_width", 0, 32);
        Reading<Integer> maxWidth = root.readInt(dir + "/max_link_width", 1, 32);
        for (Reading<Integer> w : List.of(width, maxWidth)) {
            if (w instanceof Reading.Failed<Integer>(String path, String cause)) return Reading.failed(path, cause);
            if (w instanceof Reading.Absent<Integer>(String reason)) return Reading.failed(dir, "link width " + reason);
        }
        int cw = width.orElse(0);
        int mw = maxWidth.orElse(0);
        if (!WIDTHS.contains(mw)) return Reading.failed(dir + "/max_link_width", "not a PCIe link width: x" + mw);
        if (cw != 0 && !WIDTHS.contains(cw)) return Reading.failed(dir + "/current_link_width", "not a PCIe link width: x" + cw);
        return Reading.of(new PcieLink(PcieLink.generationOf(current), PcieLink.generationOf(maxSpeed), cw, mw));
    }

    /** "Unknown" (5.x and later) or "Unknown speed" (older): the kernel could not read the link; not garbage. */
    private static boolean isUnknownSpeed(String s) {
        return s.equals("Unknown") || s.equals("Unknown speed");
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
