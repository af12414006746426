package dev.railyard.collect;

import dev.railyard.model.NetInterface;
import dev.railyard.model.NetInterface.RdmaPortRef;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;
import dev.railyard.platform.HostRoot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Interfaces from sys/class/net, with addresses and the RDMA ports they carry. */
public final class NetCollector implements Collector<List<NetInterface>> {

    static final String CLASS_DIR = "sys/class/net";
    static final String UNKNOWN_SPEED = "unknown (link down or virtual)";
    /** RFC 2863 operational states as the kernel names them. */
    static final Set<String> OPER_STATES = Set.of("unknown", "notpresent", "down", "lowerlayerdown", "testing",
            "dormant", "up");
    /** Loopback's 65536 is the largest MTU seen; a few times that still bounds garbage without guessing drivers. */
    static final int MAX_MTU = 1 << 20;
    /** 10 Tb/s in Mb/s: far above any NIC; "speed" is in Mb/s. */
    static final long MAX_SPEED_MBPS = 10_000_000;
    /** Colon-separated hex bytes: 6 for Ethernet, 20 for IPoIB, 0-16 others (tunnels print 00:00:00:00). */
    private static final Pattern HW_ADDRESS = Pattern.compile("(?:[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){0,31})?");

    @Override
    public List<NetInterface> collect(HostRoot root) {
        return collect(root, new InfinibandCollector().collect(root));
    }

    /** With the RDMA devices already read, whose GID tables say which netdevs carry RoCE. */
    public List<NetInterface> collect(HostRoot root, List<RdmaDevice> rdma) {
        return read(root, rdma).orElse(List.of());
    }

    /**
     * As {@link #collect}, failed when sys/class/net exists but cannot be listed (a link out of the root): then no
     * interface can be said to be missing.
     */
    public Reading<List<NetInterface>> read(HostRoot root, List<RdmaDevice> rdma) {
        Reading<List<String>> listed = root.listing(CLASS_DIR);
        if (listed instanceof Reading.Failed<List<String>>(String path, String cause)) return Reading.failed(path, cause);
        List<String> names = listed.orElse(List.of()).stream().filter(n -> root.isDirectory(CLASS_DIR + "/" + n)).toList();
        if (names.isEmpty()) return Reading.of(List.of());
        Reading<IpAddressTable> ips = IpAddressTable.read(root);
        List<NetInterface> out = new ArrayList<>();
        for (String name : names) out.add(one(root, name, ips, rdma));
        return Reading.of(List.copyOf(out));
    }

    private NetInterface one(HostRoot root, String name, Reading<IpAddressTable> ips, List<RdmaDevice> rdma) {
        String dir = CLASS_DIR + "/" + name;
        Reading<String> operState = oneOf(dir + "/operstate", root.read(dir + "/operstate"), OPER_STATES);
        boolean down = operState.optional().map(s -> s.equals("down") || s.equals("lowerlayerdown")).orElse(false);
        return new NetInterface(name,
                root.readInt(dir + "/mtu", 0, MAX_MTU),
                speed(root.readLong(dir + "/speed", -1, MAX_SPEED_MBPS), down),
                operState,
                carrier(dir + "/carrier", root.read(dir + "/carrier"), down),
                root.readLong(dir + "/carrier_changes", 0, Long.MAX_VALUE),
                hardwareAddress(dir + "/address", root.read(dir + "/address")),
                driver(root, dir),
                PciAddressOfClassDevice.find(root, dir),
                ips instanceof Reading.Present<IpAddressTable>(IpAddressTable t) ? t.of(name) : ips.map(x -> null),
                bondMaster(root, dir),
                bondSlaves(root, dir),
                ipoibMode(oneOf(dir + "/mode", root.read(dir + "/mode"), Set.of("datagram", "connected"))),
                rdmaPorts(root, name, dir, rdma),
                infoLabels(root, dir));
    }

    /** node_network_info's labels, read as node_exporter's procfs reads them (see {@link NetInterface.InfoLabels}). */
    private static NetInterface.InfoLabels infoLabels(HostRoot root, String dir) {
        String admin = root.read(dir + "/flags").optional().flatMap(NetCollector::hex)
                .map(f -> (f & 1) == 1 ? "up" : "down").orElse("unknown");
        return new NetInterface.InfoLabels(root.read(dir + "/broadcast").orElse("").strip(),
                root.read(dir + "/duplex").orElse("").strip(), admin, root.read(dir + "/ifalias").orElse("").strip());
    }

    /** flags as the kernel writes it ("0x1003"); garbage is unknown, as node_exporter has it. */
    private static java.util.Optional<Long> hex(String text) {
        String t = text.strip();
        try {
            return java.util.Optional.of(Long.parseLong(t.startsWith("0x") ? t.substring(2) : t, 16));
        } catch (NumberFormatException e) {
            return java.util.Optional.empty();
        }
    }

    /** -1 is what bonds, virtual devices and links without carrier report; a down link may also refuse (EINVAL). */
    private static Reading<Long> speed(Reading<Long> raw, boolean down) {
        if (raw instanceof Reading.Present<Long>(Long v) && v < 0) return Reading.absent(UNKNOWN_SPEED);
        if (raw instanceof Reading.Failed<Long> && down) return Reading.absent(UNKNOWN_SPEED);
        return raw;
    }

    /** Reading carrier on an administratively down interface fails with EINVAL in real kernels. */
    static Reading<Boolean> carrier(String path, Reading<String> raw, boolean down) {
        return switch (raw) {
            case Reading.Present<String>(String s) when s.equals("1") -> Reading.of(true);
            case Reading.Present<String>(String s) when s.equals("0") -> Reading.of(false);
            case Reading.Present<String>(String s) -> Reading.failed(path, "not 0 or 1: " + ValueText.quote(s));
            case Reading.Failed<String> f when down -> Reading.absent("interface is down (" + f.cause() + ")");
            case Reading.Failed<String> f -> Reading.failed(f.path(), f.cause());
            case Reading.Absent<String> a -> Reading.absent(a.reason());
        };
    }

    /** The whole value must be one of the words the kernel writes there. */
    static Reading<String> oneOf(String path, Reading<String> raw, Set<String> words) {
        if (raw instanceof Reading.Present<String>(String s) && !words.contains(s)) {
            return Reading.failed(path, "not one of " + new java.util.TreeSet<>(words) + ": " + ValueText.quote(s));
        }
        return raw;
    }

    private static Reading<String> hardwareAddress(String path, Reading<String> raw) {
        if (raw instanceof Reading.Present<String>(String s) && !HW_ADDRESS.matcher(s).matches()) {
            return Reading.failed(path, "not a hardware address: " + ValueText.quote(s));
        }
        return raw;
    }

    private static Reading<String> driver(HostRoot root, String dir) {
        Reading<String> d = root.linkName(dir + "/device/driver");
        return d instanceof Reading.Absent<String> ? Reading.absent("no device driver (virtual interface)") : d;
    }

    private static Reading<String> bondMaster(HostRoot root, String dir) {
        Reading<String> m = root.linkName(dir + "/master");
        return m instanceof Reading.Absent<String> ? Reading.absent("not enslaved") : m;
    }

    private static List<String> bondSlaves(HostRoot root, String dir) {
        String text = root.read(dir + "/bonding/slaves").orElse("").trim();
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\\s+"));
    }

    private static Reading<String> ipoibMode(Reading<String> raw) {
        return raw instanceof Reading.Absent<String> ? Reading.absent("not IPoIB") : raw;
    }

    /**
     * The RDMA ports behind this netdev: the RDMA device registered on the same PCI function (port from dev_port,
     * or dev_id on older kernels), plus every port whose GID table binds a GID to this netdev (RoCE over bonds,
     * VLANs and macvlans, which have no PCI function of their own).
     */
    private static List<RdmaPortRef> rdmaPorts(HostRoot root, String name, String dir, List<RdmaDevice> rdma) {
        Set<RdmaPortRef> refs = new LinkedHashSet<>();
        for (String device : root.list(dir + "/device/infiniband")) {
            String ports = InfinibandCollector.CLASS_DIR + "/" + device + "/ports";
            int index = root.readInt(dir + "/dev_port", 0, 255).optional()
                    .or(() -> root.readInt(dir + "/dev_id", 0, 255).optional()).orElse(0);
            if (root.isDirectory(ports + "/" + (index + 1))) {
                refs.add(new RdmaPortRef(device, index + 1));
            } else if (root.list(ports).size() == 1) {
                InfinibandAttributes.portNumber(root.list(ports).getFirst()).ifPresent(p -> refs.add(new RdmaPortRef(device, p)));
            }
        }
        for (RdmaDevice device : rdma) {
            for (RdmaPort port : device.ports()) {
                boolean bound = port.gids().stream().anyMatch(g -> g.netdev().optional().map(name::equals).orElse(false));
                if (bound) refs.add(new RdmaPortRef(device.name(), port.port()));
            }
        }
        return List.copyOf(refs);
    }
}
