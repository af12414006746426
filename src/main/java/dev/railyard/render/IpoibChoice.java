package dev.railyard.render;

import dev.railyard.model.ClusterSpec.IpoibMode;
import dev.railyard.model.ClusterSpec.OsFamily;

import java.util.Optional;

/**
 * The IPoIB mode and MTU for one InfiniBand binding, from the spec's wish, the HCA's driver and the OS. ConnectX-4
 * and later (mlx5) run enhanced IPoIB on RHEL 8 and later, which has datagram mode only (Red Hat's "Configuring
 * InfiniBand and RDMA networks"): a keyfile asking for connected mode and MTU 65520 there does not come up as
 * asked. Datagram's ceiling is 4092, the 4096-byte InfiniBand MTU less the 4-byte IPoIB header.
 */
public record IpoibChoice(IpoibMode mode, Optional<Integer> mtu, String why) {

    static final int DATAGRAM_MAX_MTU = 4092;

    /** The driver behind an RDMA device name: "mlx5_0" -> "mlx5", "hfi1_0" -> "hfi1", "qib0" -> "qib". */
    static String driver(String device) {
        String d = device.replaceAll("_?[0-9]+$", "");
        return d.isEmpty() ? device : d;
    }

    static IpoibChoice of(RenderInput in, RenderInput.Bound b) {
        IpoibMode wanted = b.network().ipoibMode().orElse(IpoibMode.DATAGRAM);
        Optional<Integer> mtu = b.network().mtu();
        Optional<String> driver = b.binding().rdma().map(r -> driver(r.device()));
        InstalledSystem sys = in.system();
        boolean rhel = in.node().osFamily() == OsFamily.RHEL;
        boolean enhanced = rhel && driver.map("mlx5"::equals).orElse(false) && sys.osMajor().map(v -> v >= 8).orElse(true);
        if (enhanced) {
            String release = sys.osMajor().map(v -> "RHEL " + v).orElse("RHEL (release not read: render with --root, or apply, "
                    + "reads etc/os-release; 8 or later assumed, 7 is out of maintenance)");
            StringBuilder why = new StringBuilder("datagram, MTU " + DATAGRAM_MAX_MTU + ": mlx5 (ConnectX-4 and later) on " + release
                    + " runs enhanced IPoIB, which has no connected mode; " + DATAGRAM_MAX_MTU
                    + " is the 4096-byte InfiniBand MTU less the 4-byte IPoIB header");
            if (wanted == IpoibMode.CONNECTED || mtu.map(m -> m > DATAGRAM_MAX_MTU).orElse(false)) {
                why.append(" (the spec asks for ").append(wanted == IpoibMode.CONNECTED ? "connected mode" : "datagram mode")
                        .append(mtu.map(m -> " and MTU " + m).orElse("")).append(", which this HCA and OS cannot do)");
            }
            return new IpoibChoice(IpoibMode.DATAGRAM, Optional.of(mtu.map(m -> Math.min(m, DATAGRAM_MAX_MTU)).orElse(DATAGRAM_MAX_MTU)),
                    why.toString());
        }
        String hca = driver.orElse("the HCA's driver");
        if (wanted == IpoibMode.CONNECTED) {
            return new IpoibChoice(IpoibMode.CONNECTED, mtu, "connected" + mtu.map(m -> ", MTU " + m).orElse("")
                    + ": the spec asks for it and " + hca + " on " + (rhel ? "RHEL" : "this OS")
                    + " offers connected mode (cat /sys/class/net/" + b.binding().netdev() + "/mode shows it after apply)");
        }
        if (mtu.map(m -> m > DATAGRAM_MAX_MTU).orElse(false)) {
            return new IpoibChoice(IpoibMode.DATAGRAM, Optional.of(DATAGRAM_MAX_MTU), "datagram, MTU " + DATAGRAM_MAX_MTU
                    + ": the spec's datagram mode carries at most " + DATAGRAM_MAX_MTU + " (the spec's " + mtu.get()
                    + " needs connected mode)");
        }
        return new IpoibChoice(IpoibMode.DATAGRAM, mtu, "datagram" + mtu.map(m -> ", MTU " + m).orElse("")
                + ": the spec's mode (datagram is also the kernel's default)");
    }

    String modeName() {
        return mode == IpoibMode.CONNECTED ? "connected" : "datagram";
    }
}
