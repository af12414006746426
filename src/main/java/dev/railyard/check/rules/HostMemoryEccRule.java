package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

/**
 * host.memory.ecc, the one rule: the host's memory and platform errors as the kernel logs them (EDAC, machine checks,
 * firmware's APEI). Corrected errors were repaired by the hardware (WARN: a failing DIMM or part); uncorrected or
 * fatal ones lost data (FAIL: drain the node, replace the part).
 */
public final class HostMemoryEccRule implements Rule {

    public static final CheckId ID = CheckId.HOST_MEMORY_ECC;
    static final String EXPECTED = "no memory or hardware errors";
    private static final String DIMM_COUNTS = "ras-mc-ctl --error-count || edac-util -v";
    private static final String HARDWARE_ERRORS = "dmesg | grep -F -A12 '[Hardware Error]'";

    HostMemoryEccRule() {
    }

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "the kernel's EDAC (corrected, uncorrected), machine-check and APEI (corrected, fatal) lines";
    }

    @Override
    public String thresholds() {
        return "none";
    }

    @Override
    public String severities() {
        return "corrected, a machine check: WARN; uncorrected or fatal: FAIL";
    }

    @Override
    public String fix() {
        return "the errors per DIMM (rasdaemon, edac-utils); replace the DIMM or part named; uncorrected: drain first";
    }

    public static Verdict corrected(String observed) {
        return new Verdict(ID, Severity.WARN, observed, EXPECTED, Fix.lines(
                Fix.note("the errors per DIMM (rasdaemon, else edac-utils):"), DIMM_COUNTS,
                Fix.note("replace the DIMM whose count keeps rising")));
    }

    public static Verdict uncorrected(String observed) {
        return new Verdict(ID, Severity.FAIL, observed, EXPECTED, Fix.lines(drain("memory-ue"),
                "ras-mc-ctl --errors || edac-util -v", Fix.note("replace the DIMM named above, then resume the node")));
    }

    public static Verdict machineCheck(String observed) {
        return new Verdict(ID, Severity.WARN, observed, EXPECTED, Fix.lines(
                Fix.note("the decoded machine checks: the bank and address name the CPU or DIMM"),
                "ras-mc-ctl --errors || mcelog --client"));
    }

    public static Verdict platformCorrected(String observed) {
        return new Verdict(ID, Severity.WARN, observed, EXPECTED, Fix.lines(
                Fix.note("the section type after it names the part (memory, PCIe, processor):"), HARDWARE_ERRORS,
                "ras-mc-ctl --errors"));
    }

    public static Verdict platformFatal(String observed) {
        return new Verdict(ID, Severity.FAIL, observed, EXPECTED, Fix.lines(drain("hw-error"), HARDWARE_ERRORS,
                Fix.note("replace the part its section type names, then resume the node")));
    }

    /** A pasted log does not say which node it came from: the node the fix runs on. */
    public static String drain(String reason) {
        return "scontrol update nodename=$(hostname -s) state=drain reason=" + reason;
    }
}
