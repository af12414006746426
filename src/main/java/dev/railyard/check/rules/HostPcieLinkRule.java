package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.Locale;

/**
 * host.pcie.link, the one rule: a device's PCIe link below what the device can do, whether lspci's LnkSta against
 * LnkCap says so or the kernel's "available PCIe bandwidth, limited by" line. Both are WARN (an idle GPU steps down
 * its generation to save power) with one fix for the device, named by its PCI address either way.
 */
public final class HostPcieLinkRule implements Rule {

    public static final CheckId ID = CheckId.HOST_PCIE_LINK;

    HostPcieLinkRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "lspci -vv's LnkSta against LnkCap per device; the kernel's \"available PCIe bandwidth, limited by\" "
                + "lines";
    }

    @Override
    public String thresholds() {
        return "the device's capability (speed and width)";
    }

    @Override
    public String severities() {
        return "slower or narrower: WARN; at its capability: PASS";
    }

    @Override
    public String fix() {
        return "read the device's LnkCap and LnkSta; reseat it in a slot wired for all its lanes, check the riser and "
                + "the BIOS PCIe speed and bifurcation settings";
    }

    /** A link at its capability. */
    public static Verdict atCapability(String observed) {
        return new Verdict(ID, Severity.PASS, observed, "the device's capability", "");
    }

    /** A link slower or narrower than the device can do; {@code device} as lspci or the kernel names it ("" if none). */
    public static Verdict below(String observed, String device) {
        return new Verdict(ID, Severity.WARN, observed, "the device's capability", fix(device));
    }

    /** What shows the device's link and capability, then what hands do. */
    public static String fix(String device) {
        String dev = address(device);
        return Fix.lines((dev.isEmpty() ? "lspci -vv" : "lspci -vv -s " + ShellWord.of(dev))
                        + " | grep -E '^[0-9a-f]|LnkCap:|LnkSta:'",
                Fix.note("LnkSta below LnkCap: the device runs on fewer lanes or a slower generation than it can; "
                        + "reseat it in a slot wired for all its lanes, and check the riser and the BIOS PCIe speed "
                        + "and bifurcation settings"));
    }

    /** A PCI address with its domain, lower case: lspci prints 3b:00.0, the kernel 0000:3b:00.0. */
    static String address(String device) {
        String d = device.toLowerCase(Locale.ROOT);
        if (d.matches("[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]")) return "0000:" + d;
        return d.matches("[0-9a-f]{4,}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]") ? d : "";
    }
}
