package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * rdma.counters: a port's PMA error counters. One snapshot (check, a pasted perfquery) knows only the count since
 * the counters were cleared: any non-zero is a WARN. The agent knows how much each rose: one that rose in the last
 * sample is a WARN, one that rose by the limit within the hour a FAIL. Every expected counter is judged: one that is
 * missing or garbled beside readable ones makes a clean port UNKNOWN, naming it, never a PASS.
 */
public final class RdmaCountersRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_COUNTERS;
    public static final List<String> ERRORS = List.of("symbol_error", "link_downed", "link_error_recovery",
            "port_rcv_errors", "port_rcv_remote_physical_errors", "port_xmit_discards", "local_link_integrity_errors",
            "excessive_buffer_overrun_errors", "port_rcv_constraint_errors", "port_xmit_constraint_errors");
    /** The window the agent's per-hour rise is taken over. */
    public static final Duration HOUR = Duration.ofHours(1);

    /** How much one counter rose: since the last sample, and within the hour. */
    public record Rise(long lastStep, long withinHour) {}

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RdmaPort PMA error counters (" + String.join(", ", ERRORS) + "); the agent: how much each rose since "
                + "the last sample and within the hour";
    }

    @Override
    public String thresholds() {
        return "0 since the counters were cleared (one snapshot); the agent: --errors-per-hour (default 10)";
    }

    @Override
    public String severities() {
        return "non-zero in a snapshot: WARN; the agent: rose since the last sample: WARN, rose by the limit within "
                + "the hour: FAIL; none readable, or one unreadable on a clean port: UNKNOWN";
    }

    @Override
    public String fix() {
        return "read the port's link and counters, reseat or replace the cable, clear the counters (perfquery -R on "
                + "InfiniBand; a driver reload on RoCE) and watch whether they rise again";
    }

    /** One reading: every error counter against 0. */
    public static Verdict snapshot(RdmaPort p) {
        String expected = "all " + ERRORS.size() + " error counters 0";
        List<String> nonZero = new ArrayList<>();
        List<String> unread = unread(p);
        for (String name : ERRORS) {
            if (p.counter(name) instanceof Reading.Present<Long>(Long v) && v > 0) nonZero.add(name + "=" + v);
        }
        int read = ERRORS.size() - unread.size();
        String unreadText = unread.isEmpty() ? "" : "; could not read " + unread.size() + ": " + String.join(", ", unread);
        // i40iw and VFs print "N/A (no PMA)": there is nothing to judge, and that must show
        if (read == 0) return new Verdict(ID, Severity.UNKNOWN, p.counter(ERRORS.getFirst()).describe(), expected, "");
        if (!nonZero.isEmpty()) {
            return new Verdict(ID, Severity.WARN, String.join(", ", nonZero) + unreadText, expected, fix(p));
        }
        // the kernel creates the port's PMA counters together: one missing or garbled hides its value
        if (!unread.isEmpty()) return new Verdict(ID, Severity.UNKNOWN, read + " error counters 0" + unreadText, expected, "");
        return new Verdict(ID, Severity.PASS, read + " error counters all 0", expected, "");
    }

    /** The agent's facts: how much each readable counter rose, against {@code failPerHour} within the hour. */
    public static Verdict rising(RdmaPort p, Map<String, Rise> rises, long failPerHour) {
        String expected = "error counters not rising (< " + failPerHour + " per hour)";
        List<String> rising = new ArrayList<>();
        List<String> failing = new ArrayList<>();
        for (String name : ERRORS) {
            Rise r = rises.get(name);
            if (r == null) continue;
            if (r.lastStep() > 0) rising.add(name + " +" + r.lastStep() + " (" + r.withinHour() + " in the last hour)");
            if (r.withinHour() >= failPerHour) failing.add(name);
        }
        List<String> unread = unread(p);
        if (rises.isEmpty()) return new Verdict(ID, Severity.UNKNOWN, p.counter(ERRORS.getFirst()).describe(), expected, "");
        String notRead = unread.isEmpty() ? "" : "; could not read " + String.join(", ", unread);
        if (!failing.isEmpty()) {
            return new Verdict(ID, Severity.FAIL, String.join(", ", rising.isEmpty() ? failing : rising) + notRead,
                    expected, fix(p));
        }
        if (!rising.isEmpty()) return new Verdict(ID, Severity.WARN, String.join(", ", rising) + notRead, expected, fix(p));
        if (!unread.isEmpty()) {
            return new Verdict(ID, Severity.UNKNOWN, rises.size() + " counters not rising" + notRead, expected, "");
        }
        return new Verdict(ID, Severity.PASS, rises.size() + " error counters not rising", expected, "");
    }

    /** The error counters that could not be read, each with why. */
    private static List<String> unread(RdmaPort p) {
        List<String> out = new ArrayList<>();
        for (String name : ERRORS) {
            switch (p.counter(name)) {
                case Reading.Present<Long> ignored -> { }
                case Reading.Failed<Long>(String path, String cause) -> out.add(name + " (" + cause + ")");
                case Reading.Absent<Long>(String reason) -> out.add(name + " (" + reason + ")");
            }
        }
        return out;
    }

    /**
     * The port's link and counters, then hands: the cable, and clearing the counters to see whether they rise again.
     * perfquery speaks to an InfiniBand port's PMA through the subnet manager's MADs and fails on RoCE, so there the
     * counters are read where the kernel keeps them and clear only with the driver.
     */
    public static String fix(RdmaPort p) {
        String dev = ShellWord.of(p.device());
        List<String> lines = new ArrayList<>(List.of("rdma link show " + ShellWord.of(p.device() + "/" + p.port()),
                "grep . " + ShellWord.of("/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/counters/") + "*",
                "dmesg | grep -i " + dev));
        if (p.isEthernet()) {
            lines.add(Fix.note("reseat or replace the cable/transceiver on " + p.device() + " port " + p.port()
                    + ", or move it to another switch port (RoCE: these counters clear only when the driver reloads), "
                    + "then watch whether they rise again"));
        } else {
            lines.add(Fix.note("reseat or replace the cable/transceiver on " + p.device() + " port " + p.port()
                    + ", or move it to another switch port, then clear the counters and watch whether they rise again"));
            lines.add("perfquery -x -C " + dev + " -P " + p.port());
            lines.add("perfquery -R -C " + dev + " -P " + p.port());
        }
        return Fix.lines(lines.toArray(String[]::new));
    }
}
