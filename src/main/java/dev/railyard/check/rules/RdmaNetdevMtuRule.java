package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.NetInterface;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.Optional;

/**
 * rdma.netdev.mtu: a fabric netdev's MTU. RoCE takes its packet size from the netdev, so without a spec a RoCE netdev
 * below {@link NetInterface#JUMBO_MTU} is a WARN; below the spec's MTU it is a FAIL. A network without RDMA and
 * without an MTU in the spec is INFO. IPoIB is judged by its mode and MTU only when the spec asks (connected mode, or
 * an MTU). A pasted ibv_devinfo shows the port's active_mtu: 1024 on RoCE means a netdev at 1500 or less, a WARN as
 * the check's jumbo rule gives.
 */
public final class RdmaNetdevMtuRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_NETDEV_MTU;
    /** The RoCE active_mtu a netdev of 1500 bytes or less leaves. */
    public static final int SMALL_ACTIVE_MTU = 1024;

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "fabric netdev MTU (RoCE) and IPoIB mode; whether the network carries RDMA; diagnose: a RoCE port's "
                + "active_mtu in ibv_devinfo";
    }

    @Override
    public String thresholds() {
        return "the spec network's mtu, else " + NetInterface.JUMBO_MTU + " for RoCE; IPoIB connected mode and "
                + NetInterface.IPOIB_CONNECTED_MTU + " when asked; active_mtu above " + SMALL_ACTIVE_MTU;
    }

    @Override
    public String severities() {
        return "below the spec's MTU: FAIL; below " + NetInterface.JUMBO_MTU + " without a spec: WARN; IPoIB not as "
                + "asked: FAIL; no spec asking (IPoIB, or no RDMA): INFO; a RoCE active_mtu of " + SMALL_ACTIVE_MTU
                + " in a paste: WARN; unreadable: UNKNOWN";
    }

    @Override
    public String fix() {
        return "set the MTU now and in a netplan drop-in (IPoIB: nmcli connected mode)";
    }

    /** An Ethernet (RoCE or TCP) fabric netdev's MTU against the spec's or, where it carries RDMA, jumbo frames. */
    public static Verdict ethernet(String netdev, Reading<Integer> mtu, Optional<Integer> specMtu, boolean rdma) {
        if (!rdma && specMtu.isEmpty()) {
            // jumbo frames are RoCE's need; on a TCP network the MTU is the spec's choice, and it made none
            return new Verdict(ID, Severity.INFO, mtu.describe(),
                    "no MTU in the spec; a network without RDMA needs no jumbo frames", "");
        }
        int want = specMtu.orElse(NetInterface.JUMBO_MTU);
        String expected = ">= " + want + (specMtu.isPresent() ? " (spec)" : " (jumbo frames for RoCE)");
        if (!(mtu instanceof Reading.Present<Integer>(Integer have))) {
            return new Verdict(ID, Severity.UNKNOWN, mtu.describe(), expected, "");
        }
        if (have >= want) return new Verdict(ID, Severity.PASS, String.valueOf(have), expected, "");
        return new Verdict(ID, specMtu.isPresent() ? Severity.FAIL : Severity.WARN, String.valueOf(have), expected,
                setMtu(netdev, want));
    }

    /** An IPoIB netdev: its mode and MTU against what the spec asks; nothing asked is INFO. */
    public static Verdict ipoib(String netdev, Reading<String> mode, Reading<Integer> mtu, Optional<Integer> specMtu,
                                boolean wantConnected) {
        if (!wantConnected && specMtu.isEmpty()) {
            return new Verdict(ID, Severity.INFO, "mode " + mode.describe() + ", mtu " + mtu.describe(),
                    "IPoIB: no mode asked by a spec", "");
        }
        int want = specMtu.orElse(NetInterface.IPOIB_CONNECTED_MTU);
        String expected = (wantConnected ? "connected mode, " : "") + "mtu " + want;
        if (!mtu.isPresent() || wantConnected && !mode.isPresent()) {
            return new Verdict(ID, Severity.UNKNOWN, (mtu.isPresent() ? mode : mtu).describe(), expected, "");
        }
        boolean modeOk = !wantConnected || mode.orElse("").equalsIgnoreCase("connected");
        boolean mtuOk = mtu.orElse(0) >= want;
        String observed = "mode " + mode.orElse("?") + ", mtu " + mtu.orElse(0);
        if (modeOk && mtuOk) return new Verdict(ID, Severity.PASS, observed, expected, "");
        // nmcli both applies and persists: one line is the whole fix
        return new Verdict(ID, Severity.FAIL, observed, expected, "nmcli connection modify " + ShellWord.of(netdev)
                + " infiniband.transport-mode connected infiniband.mtu " + want + " && nmcli connection up "
                + ShellWord.of(netdev));
    }

    /** A RoCE port's active_mtu as ibv_devinfo prints it; empty when it says nothing against the netdev. */
    public static Optional<Verdict> activeMtu(String hca, int port, int activeMtu) {
        if (activeMtu <= 0 || activeMtu > SMALL_ACTIVE_MTU) return Optional.empty();
        return Optional.of(new Verdict(ID, Severity.WARN, "RoCE active_mtu " + activeMtu + ": the netdev MTU is 1500 "
                + "or less, so RDMA messages go out in 1 KiB packets", ">= " + NetInterface.JUMBO_MTU
                + " (jumbo frames for RoCE)", portMtuFix(hca, port)));
    }

    /** The netdev to {@code want} now and at boot. */
    public static String setMtu(String netdev, int want) {
        return Fix.lines("ip link set dev " + ShellWord.of(netdev) + " mtu " + want,
                Fix.netplanDropIn(netdev, "mtu", "mtu: " + want));
    }

    /**
     * The port's netdev to jumbo frames now and at boot (a netplan drop-in). ibv_devinfo does not name the netdev; the
     * kernel does, as the netdev of the port's first GID.
     */
    private static String portMtuFix(String hca, int port) {
        int want = NetInterface.JUMBO_MTU;
        String netdev = "$(cat " + ShellWord.of("/sys/class/infiniband/" + hca + "/ports/" + port
                + "/gid_attrs/ndevs/0") + ")";
        String yaml = "network:\\n  version: 2\\n  ethernets:\\n    %s:\\n      mtu: " + want + "\\n";
        String file = "/etc/netplan/90-railyard-$n-mtu.yaml";
        return Fix.lines(Fix.note("RoCE packets take the netdev's MTU: " + want + " here, on the other end and on "
                        + "every switch port between them"),
                "ip link set dev \"" + netdev + "\" mtu " + want,
                Fix.note("and at boot:"),
                "for n in " + netdev + "; do printf '" + yaml + "' \"$n\" > \"" + file + "\" && chmod 600 \"" + file
                        + "\"; done && netplan apply");
    }
}
