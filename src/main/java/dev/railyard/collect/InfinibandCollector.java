package dev.railyard.collect;

import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.RdmaPort.Gid;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** RDMA devices and ports from sys/class/infiniband. */
public final class InfinibandCollector implements Collector<List<RdmaDevice>> {

    static final String CLASS_DIR = "sys/class/infiniband";
    /** LIDs are 16 bits. */
    private static final int LID_MAX = 0xffff;

    @Override
    public List<RdmaDevice> collect(HostRoot root) {
        return read(root).orElse(List.of());
    }

    /**
     * The devices; failed with the path and cause when sys/class/infiniband exists but cannot be listed (a link out of
     * the root), so a spec'd port is judged unknown rather than missing. Absent (no RDMA stack) reads as no devices.
     */
    public Reading<List<RdmaDevice>> read(HostRoot root) {
        Reading<List<String>> listed = root.listing(CLASS_DIR);
        if (listed instanceof Reading.Failed<List<String>>(String path, String cause)) return Reading.failed(path, cause);
        List<RdmaDevice> devices = new ArrayList<>();
        for (String name : listed.orElse(List.of())) {
            String dir = CLASS_DIR + "/" + name;
            if (!root.isDirectory(dir)) continue;
            devices.add(new RdmaDevice(name,
                    root.read(dir + "/fw_ver"),
                    root.read(dir + "/node_guid"),
                    root.read(dir + "/board_id"),
                    root.read(dir + "/hca_type"),
                    PciAddressOfClassDevice.find(root, dir),
                    ports(root, name, dir)));
        }
        return Reading.of(List.copyOf(devices));
    }

    /**
     * The agent's every-second read: port state, physical state, rate, link layer, LIDs and counters afresh, the
     * device attributes (firmware, GUID, board, PCI address) and GID tables from {@code previous}. Falls back to a
     * full read when the devices or their ports are not the ones {@code previous} lists (a driver reload). With
     * {@code hwCounters} false the ports/N/hw_counters values are carried from {@code previous} too: nothing judges
     * them, they are served raw, and they are ~26 files of a port's ~53.
     */
    public Reading<List<RdmaDevice>> refresh(HostRoot root, List<RdmaDevice> previous, boolean hwCounters) {
        Reading<List<String>> listed = root.listing(CLASS_DIR);
        if (listed instanceof Reading.Failed<List<String>>(String path, String cause)) return Reading.failed(path, cause);
        List<String> names = listed.orElse(List.of()).stream().filter(n -> root.isDirectory(CLASS_DIR + "/" + n)).toList();
        if (!names.equals(previous.stream().map(RdmaDevice::name).toList())) return read(root);
        List<RdmaDevice> devices = new ArrayList<>(previous.size());
        for (RdmaDevice d : previous) {
            String dir = CLASS_DIR + "/" + d.name();
            List<RdmaPort> ports = new ArrayList<>(d.ports().size());
            for (RdmaPort p : d.ports()) {
                String portDir = dir + "/ports/" + p.port();
                if (!root.isDirectory(portDir)) return read(root);
                ports.add(port(root, d.name(), p.port(), portDir, Optional.of(p.gids()),
                        hwCounters ? Optional.empty() : Optional.of(p.hwCounters()), Optional.of(p.pkeys())));
            }
            if (root.list(dir + "/ports").size() != ports.size()) return read(root);
            devices.add(new RdmaDevice(d.name(), d.firmwareVersion(), d.nodeGuid(), d.boardId(), d.hcaType(),
                    d.pciAddress(), ports));
        }
        return Reading.of(List.copyOf(devices));
    }

    private List<RdmaPort> ports(HostRoot root, String device, String dir) {
        List<RdmaPort> ports = new ArrayList<>();
        for (String p : root.list(dir + "/ports")) {
            Optional<Integer> number = InfinibandAttributes.portNumber(p);
            if (number.isEmpty()) continue;
            ports.add(port(root, device, number.get(), dir + "/ports/" + p));
        }
        return ports;
    }

    private RdmaPort port(HostRoot root, String device, int number, String dir) {
        return port(root, device, number, dir, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** With {@code knownGids}, {@code knownHw} or {@code knownPkeys} empty that part is read; otherwise it is taken as given. */
    private RdmaPort port(HostRoot root, String device, int number, String dir, Optional<List<Gid>> knownGids,
                          Optional<Map<String, Reading<Long>>> knownHw, Optional<Reading<List<Integer>>> knownPkeys) {
        Reading<PortState> state = InfinibandAttributes.state(dir + "/state", root.read(dir + "/state"));
        Reading<PortState> phys = InfinibandAttributes.state(dir + "/phys_state", root.read(dir + "/phys_state"));
        Reading<LinkRate> rate = InfinibandAttributes.rate(dir + "/rate", root.read(dir + "/rate"));
        // trimmed by HostRoot: procfs' mlx4_0 port 2 has "InfiniBand\n\n"
        Reading<String> linkLayer = InfinibandAttributes.linkLayer(dir + "/link_layer", root.read(dir + "/link_layer"));
        boolean ethernet = linkLayer.optional().map(l -> l.equalsIgnoreCase("Ethernet")).orElse(false);
        return new RdmaPort(device, number, state, phys, rate, linkLayer,
                root.readInt(dir + "/lid", 0, LID_MAX), root.readInt(dir + "/sm_lid", 0, LID_MAX),
                knownGids.orElseGet(() -> gids(root, dir, ethernet)), counters(root, dir + "/counters"),
                knownHw.orElseGet(() -> counters(root, dir + "/hw_counters")),
                knownPkeys.orElseGet(() -> ethernet ? Reading.absent("a RoCE port: partitions are InfiniBand's")
                        : pkeys(root, dir + "/pkeys/")));
    }

    /**
     * The non-zero P_Key table entries. The kernel lays out entries 0..size-1 (128 on ConnectX) and most are
     * 0x0000, so they are read counting up, as the GID table is. One garbled entry fails the table with its path:
     * a partition check cannot judge a table it read only in part.
     */
    private static Reading<List<Integer>> pkeys(HostRoot root, String table) {
        if (!root.exists(table + "0")) return Reading.absent("no P_Key table (" + table + "0)");
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; ; i++) {
            Reading<String> raw = root.read(table + i);
            switch (raw) {
                case Reading.Absent<String> a -> {
                    return Reading.of(keys);
                }
                case Reading.Failed<String>(String path, String cause) -> {
                    return Reading.failed(path, cause);
                }
                case Reading.Present<String>(String text) -> {
                    Optional<Integer> key = InfinibandAttributes.pkey(text);
                    if (key.isEmpty()) return Reading.failed(table + i, "not a P_Key: '" + text + "'");
                    if (key.get() != 0) keys.add(key.get());
                }
            }
        }
    }

    /**
     * The non-empty GID table entries. A port has up to 256 entries and a node hundreds of ports, so the zero
     * entries are skipped before reading their attributes: reading gid_attrs/types/N of a zero GID fails with
     * EINVAL anyway (nccl#1573).
     */
    private List<Gid> gids(HostRoot root, String dir, boolean ethernet) {
        List<Gid> gids = new ArrayList<>();
        String table = dir + "/gids/";
        if (root.exists(table + "0")) {
            // the kernel lays out every entry 0..size-1: count up instead of listing and sorting 256 names
            for (int i = 0; ; i++) {
                Reading<String> gid = root.read(table + i);
                if (gid instanceof Reading.Absent<String>) break;
                if (gid instanceof Reading.Present<String>(String value)) addGid(root, dir, i, value, ethernet, gids);
            }
        } else {
            for (String name : root.list(table)) {
                Optional<Integer> i = InfinibandAttributes.portNumber(name);
                if (i.isPresent() && root.read(table + name) instanceof Reading.Present<String>(String value)) {
                    addGid(root, dir, i.get(), value, ethernet, gids);
                }
            }
        }
        return gids;
    }

    /** A GID that is not eight groups of hex is skipped like an empty entry: nothing can be addressed through it. */
    private static void addGid(HostRoot root, String dir, int index, String value, boolean ethernet, List<Gid> out) {
        if (InfinibandAttributes.isZeroGid(value) || !InfinibandAttributes.isGid(value)) return;
        String typePath = dir + "/gid_attrs/types/" + index;
        out.add(new Gid(index, value, InfinibandAttributes.gidType(typePath, root.read(typePath), ethernet),
                netdev(root.read(dir + "/gid_attrs/ndevs/" + index))));
    }

    /** An IB GID has no netdev: the file is empty or unreadable there. */
    private static Reading<String> netdev(Reading<String> raw) {
        if (raw instanceof Reading.Present<String>(String s) && s.isBlank()) return Reading.absent("no netdev bound");
        return raw;
    }

    private Map<String, Reading<Long>> counters(HostRoot root, String dir) {
        Map<String, Reading<Long>> counters = new LinkedHashMap<>();
        for (String name : root.list(dir)) {
            String path = dir + "/" + name;
            if (root.isDirectory(path)) continue;
            counters.put(name, InfinibandAttributes.counter(path, root.read(path)));
        }
        return counters;
    }
}
