package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * host.module.rdma: an RDMA-capable NIC on PCI with no RDMA device ("No RDMA devices found" until modprobe mlx4_ib or
 * mlx5_ib) is a FAIL; a NIC whose ids, or an RDMA device whose PCI function, could not be read is UNKNOWN. A pasted
 * kernel log where a NIC driver's probe failed: FAIL for the fabric's drivers (mlx, bnxt, ice, irdma), else WARN.
 */
public final class HostModuleRdmaRule implements Rule {

    public static final CheckId ID = CheckId.HOST_MODULE_RDMA;
    public static final String EXPECTED = "an RDMA device for the NIC";

    /** The RDMA (ib) driver that goes with each NIC core driver. */
    private static final Map<String, String> IB_DRIVER = Map.of(
            "mlx4_core", "mlx4_ib", "mlx5_core", "mlx5_ib", "bnxt_en", "bnxt_re", "ice", "irdma", "qede", "qedr");
    /** The modules on top of a NIC driver (RDMA, and mlx4's Ethernet), taken out with it to load it again. */
    private static final Map<String, String> ON_TOP = Map.of("mlx5_core", "mlx5_ib", "mlx4_core",
            "mlx4_ib mlx4_en", "bnxt_en", "bnxt_re", "ice", "irdma");

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RDMA-capable NICs on PCI and their core driver, /sys/class/infiniband devices and their PCI "
                + "functions; diagnose: the kernel's driver probe failures";
    }

    @Override
    public String thresholds() {
        return "none";
    }

    @Override
    public String severities() {
        return "an RDMA NIC without an RDMA device: FAIL; ids or the device's PCI function unreadable: UNKNOWN; a "
                + "probe failure in a pasted log: FAIL for a fabric driver, else WARN";
    }

    @Override
    public String fix() {
        return "load the NIC's RDMA driver now and at boot; a failed probe: match driver and firmware, then reload";
    }

    /**
     * One NIC: whether an RDMA device sits on its PCI function ({@code covered}), the ids that could not be read,
     * an RDMA device whose PCI function is not known ({@code unplaced}, with why), and its core driver.
     */
    public static Verdict nic(boolean covered, List<String> unreadableIds, Optional<String> unplaced,
                              Reading<String> coreDriver) {
        if (covered) return new Verdict(ID, Severity.PASS, "RDMA device present", EXPECTED, "");
        if (!unreadableIds.isEmpty()) {
            return new Verdict(ID, Severity.UNKNOWN, "may be an RDMA NIC without its driver: "
                    + String.join("; ", unreadableIds), EXPECTED, "");
        }
        if (unplaced.isPresent()) return new Verdict(ID, Severity.UNKNOWN, unplaced.get(), EXPECTED, "");
        return new Verdict(ID, Severity.FAIL, "no device in /sys/class/infiniband for this NIC", EXPECTED,
                driverFix(coreDriver));
    }

    /** The RDMA driver to load for a NIC bound to {@code coreDriver}, now and at boot. */
    public static String driverFix(Reading<String> coreDriver) {
        return coreDriver.optional().map(IB_DRIVER::get).map(HostModuleRdmaRule::module)
                .orElse(Fix.lines(Fix.note("no known RDMA driver for NIC driver " + coreDriver.describe()
                        + "; Mellanox ConnectX-3 uses mlx4_ib, ConnectX-4 and later mlx5_ib"), "lspci -k -d 15b3:"));
    }

    /**
     * A NIC driver's probe that failed on {@code dev} ({@code observed} as the log says it); {@code fabric} when the
     * driver is one of the fabric's. The kernel's lines and the driver's version, its firmware for an NVIDIA NIC,
     * then the driver loaded again with the modules on top of it.
     */
    public static Verdict probeFailed(String driver, String dev, boolean fabric, String observed) {
        String d = ShellWord.of(driver);
        String above = ON_TOP.get(driver);
        List<String> lines = new java.util.ArrayList<>(List.of(
                "dmesg | grep -F " + ShellWord.of(dev.isEmpty() ? driver : dev),
                "modinfo " + d + " | grep -E '^(filename|version|vermagic):'"));
        if (driver.startsWith("mlx")) lines.add("mlxfwmanager --query");
        lines.add(Fix.note("the lines above say which step failed; match the driver to the firmware (update one of "
                + "them), then load it again:"));
        lines.add(above == null ? "modprobe -r " + d + " && modprobe " + d
                : "modprobe -r " + above + " " + d + " && modprobe -a " + d + " " + above);
        return new Verdict(ID, fabric ? Severity.FAIL : Severity.WARN, observed, "the driver attached",
                Fix.lines(lines.toArray(String[]::new)));
    }

    /** Loads a kernel module now and at every boot. */
    static String module(String name) {
        return Fix.lines("modprobe " + name, "echo " + name + " > /etc/modules-load.d/" + name + ".conf");
    }
}
