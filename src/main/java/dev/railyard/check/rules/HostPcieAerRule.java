package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

/**
 * host.pcie.aer, the one rule: PCIe errors the kernel's AER driver reported. A corrected error means the link
 * retried (WARN: a marginal slot, riser or cable); an uncorrected one lost a transaction (FAIL: drain the node).
 */
public final class HostPcieAerRule implements Rule {

    public static final CheckId ID = CheckId.HOST_PCIE_AER;
    static final String EXPECTED = "no PCIe errors";

    HostPcieAerRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "the kernel's AER lines (corrected, uncorrected), per device";
    }

    @Override
    public String thresholds() {
        return "none";
    }

    @Override
    public String severities() {
        return "corrected: WARN; uncorrected: FAIL";
    }

    @Override
    public String fix() {
        return "the device's AER status; reseat the card and check its riser or cable; uncorrected: drain first";
    }

    public static Verdict corrected(String observed, String device) {
        return new Verdict(ID, Severity.WARN, observed, EXPECTED, Fix.lines(status(device),
                Fix.note("reseat the card" + at(device) + " and check its riser or cable; a desktop port that floods "
                        + "the log is quieted by booting with pcie_aspm=off")));
    }

    public static Verdict uncorrected(String observed, String device) {
        return new Verdict(ID, Severity.FAIL, observed, EXPECTED, Fix.lines(HostMemoryEccRule.drain("pcie-aer"),
                status(device), Fix.note("reseat or replace the device" + at(device) + ", then resume the node")));
    }

    private static String status(String device) {
        return "lspci -vvv" + (device.isEmpty() ? "" : " -s " + ShellWord.of(device))
                + " | grep -A8 'Advanced Error Reporting'";
    }

    private static String at(String device) {
        return device.isEmpty() ? "" : " at " + device;
    }
}
