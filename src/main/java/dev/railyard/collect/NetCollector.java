package dev.railyard.collect;

import dev.railyard.model.NetInterface;
import dev.railyard.model.NetInterface.RdmaPortRef;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Interfaces from sys/class/net, with addresses and the RDMA ports they carry. */
public final class NetCollector implements Collector<List<NetInterface>> {

    static final String CLASS_DIR = "sys/class/net";
    static final String UNKNOWN_SPEED = "unknown (link down or virtual)";

    @Override
    public List<NetInterface> collect(HostRoot root) {
        return collect(root, new InfinibandCollector().collect(root));
    }

    /** With the RDMA devices already read, whose GID tables say which netdevs carry RoCE. */
    public List<NetInterface> collect(HostRoot root, List<RdmaDevice> rdma) {
        List<String> names = root.list(CLASS_DIR).stream().filter(n -> root.isDirectory(CLASS_DIR + "/" + n)).toList();
        if (names.isEmpty()) return List.of();
        Reading<IpAddressTable> ips = IpAddressTable.read(root);
        List<NetInterface> out = new ArrayList<>();
        for (String name : names) out.add(one(root, name, ips, rdma));
        return List.copyOf(out);
    }

    private NetInterface one(HostRoot root, String name, Reading<IpAddressTable> ips, List<RdmaDevice> rdma) {
        String dir = CLASS_DIR + "/" + name;
        Reading<String> operState = root.read(dir + "/operstate");
        boolean down = operState.optional().map(s -> s.equals("down") || s.equals("lowerlayerdown")).orElse(false);
        return new NetInterface(name,
                root.readInt(dir + "/mtu"),
                speed(root.readLong(dir + "/speed"), down),
                operState,
                carrier(dir + "/carrier", root.read(dir + "/carrier"), down),
                root.readLong(dir + "/carrier_changes"),
                root.read(dir + "/address"),
                driver(root, dir),
                PciAddressOfClassDevice.find(root, dir),
                ips instanceof Reading.Present<IpAddressTable>(IpAddressTable t) ? t.of(name) : ips.map(x -> null),
                bondMaster(root, dir),
                bondSlaves(root, dir),
                ipoibMode(root.read(dir + "/mode")),
                rdmaPorts(root, name, dir, rdma));
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
            case Reading.Present<String>(String s) -> Reading.failed(path, "not 0 or 1: \"" + s + "\"");
            case Reading.Failed<String> f when down -> Reading.absent("interface is down (" + f.cause() + ")");
            case Reading.Failed<String> f -> Reading.failed(f.path(), f.cause());
            case Reading.Absent<String> a -> Reading.absent(a.reason());
        };
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
            int index = root.readInt(dir + "/dev_port").optional()
                    .or(() -> root.readInt(dir + "/dev_id").optional()).orElse(0);
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
