package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort.Gid;
import dev.railyard.model.RdmaPort.GidType;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Optional;

/**
 * rdma.roce.gid: every RoCE port needs a RoCE v2 GID for its IPv4 address; the PASS names the GID index to pass to
 * perftest and NCCL ("Unable to find GID" -> --gid-index). Only a RoCE v1 GID for the address, or none: FAIL; a port
 * whose netdev has no IPv4 address: WARN; a GID whose type cannot be read: UNKNOWN. The GID table from sysfs and a
 * pasted show_gids are judged here alike.
 */
public final class RoceGidRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_ROCE_GID;
    public static final String EXPECTED = "a RoCE v2 GID for the port's IPv4 address";

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RoCE ports' GID tables (sysfs, or show_gids pasted) and their netdevs' IPv4 addresses (the spec's "
                + "address where it binds the port)";
    }

    @Override
    public String thresholds() {
        return "a RoCE v2 GID per address";
    }

    @Override
    public String severities() {
        return "no GID for the address, only RoCE v1, or no GIDs at all: FAIL; no IPv4 address: WARN; a GID type "
                + "unreadable, or the link layer: UNKNOWN; PASS names the GID index to use";
    }

    @Override
    public String fix() {
        return "bring the address up on the netdev (the GID table follows it); RoCE v1 only: mlx4_core roce_mode=2; "
                + "pass --gid-index (railyard render writes NCCL_IB_GID_INDEX)";
    }

    /** The port's link layer could not be read: it may be a RoCE port, so not judged, and said so. */
    public static Verdict linkLayerUnread(Reading<String> linkLayer) {
        return new Verdict(ID, Severity.UNKNOWN, linkLayer.describe(), EXPECTED + " when it is RoCE", "");
    }

    /** The port's netdev ({@code netdev}, or "its netdev" when not known) has no IPv4 address. */
    public static Verdict noIpv4(String device, int port, String netdev) {
        return new Verdict(ID, Severity.WARN, netdev + " has no IPv4 address", EXPECTED, Fix.lines(
                Fix.note("give the port's netdev its fabric address: bind it in the spec (networks[].bind) and check "
                        + "again for the exact commands"), "rdma link show " + ShellWord.of(device + "/" + port)));
    }

    /** A device with no GIDs at all (a pasted show_gids with no rows: no netdev with an address in the namespace). */
    public static Verdict noGids(String observed) {
        return new Verdict(ID, Severity.FAIL, observed, EXPECTED, Fix.lines(Fix.note("the RDMA devices, their netdevs, "
                        + "and the addresses here: a GID needs the RDMA device's netdev in this namespace with an IP on it"),
                "rdma link show", "ip -br addr", Fix.note("in a pod, attach the RDMA netdev with the SR-IOV, macvlan or "
                        + "host-device CNI; then show_gids lists its RoCE v1 and v2 rows")));
    }

    /**
     * One IPv4 address {@code addr} on {@code netdev}: {@code forAddr} are the port's GIDs that carry it, of
     * {@code tableSize} GIDs; {@code specCidr} the spec's address with its prefix, for an exact fix.
     */
    public static Verdict forAddress(String device, int port, String netdev, String addr, List<Gid> forAddr,
                                     int tableSize, Optional<String> specCidr) {
        String expected = "RoCE v2 GID ::ffff:" + addr;
        Optional<Gid> v2 = forAddr.stream().filter(g -> g.type().optional().map(t -> t == GidType.ROCE_V2).orElse(false))
                .findFirst();
        if (v2.isPresent()) {
            int i = v2.get().index();
            return new Verdict(ID, Severity.PASS, "GID index " + i + " = RoCE v2 " + v2.get().gid(), expected,
                    "ib_write_bw --ib-dev=" + ShellWord.of(device) + " --ib-port=" + port + " --gid-index=" + i);
        }
        Optional<Gid> untyped = forAddr.stream().filter(g -> !g.type().isPresent()).findFirst();
        if (untyped.isPresent()) {
            return new Verdict(ID, Severity.UNKNOWN, "GID index " + untyped.get().index() + " = " + untyped.get().gid()
                    + ", type " + untyped.get().type().describe(), expected,
                    "cat " + ShellWord.of("/sys/class/infiniband/" + device + "/ports/" + port
                            + "/gid_attrs/types/" + untyped.get().index()));
        }
        if (!forAddr.isEmpty()) {
            int i = forAddr.getFirst().index();
            return new Verdict(ID, Severity.FAIL, "only RoCE v1 GID index " + i + " for " + addr, expected, Fix.lines(
                    Fix.note("ConnectX-3 turns RoCE v2 on in mlx4_core; the reload takes the port down briefly "
                            + "(or run perftest with --gid-index=" + i + " against RoCE v1 peers only)"),
                    "echo 'options mlx4_core roce_mode=2' > /etc/modprobe.d/mlx4-roce.conf",
                    "modprobe -r mlx4_ib mlx4_en mlx4_core && modprobe mlx4_core && modprobe mlx4_en && modprobe mlx4_ib"));
        }
        // The GID table follows the netdev's addresses: adding the spec's address adds its GIDs.
        String dev = ShellWord.of(netdev);
        String fix = specCidr.filter(a -> a.contains("/"))
                .map(c -> Fix.lines("ip addr add " + c + " dev " + dev,
                        Fix.netplanDropIn(netdev, "address", "addresses: [" + c + "]")))
                .orElse(Fix.lines(Fix.note(addr + " is on " + netdev + " but not in the GID table: bounce the link to rebuild it"),
                        "ip link set dev " + dev + " down && ip link set dev " + dev + " up"));
        return new Verdict(ID, Severity.FAIL, "no GID for " + addr + " (" + tableSize + " GIDs)", expected, fix);
    }
}
