package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;

/**
 * rdma.counters: error counters non-zero on a port. One snapshot cannot tell "rising" (the agent's detectors do,
 * over a window); here any non-zero error since the counters were cleared is a WARN naming the counters. Every
 * expected counter is judged: one that is missing or garbled beside readable ones makes an all-zero port UNKNOWN,
 * naming it, never a PASS over the counters that happened to read.
 */
public final class RdmaCountersCheck implements Check {

    static final String ID = CheckId.RDMA_COUNTERS.id();
    static final List<String> ERRORS = List.of("symbol_error", "link_downed", "link_error_recovery",
            "port_rcv_errors", "port_rcv_remote_physical_errors", "port_xmit_discards", "local_link_integrity_errors",
            "excessive_buffer_overrun_errors", "port_rcv_constraint_errors", "port_xmit_constraint_errors");

    static final String SATURATED = CheckId.RDMA_COUNTERS_SATURATED.id();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<String> ids() {
        return List.of(ID, SATURATED);
    }

    @Override
    public List<Finding> run(CheckInput in) {
        List<Finding> out = new ArrayList<>();
        for (RdmaPort p : in.ports()) {
            List<String> nonZero = new ArrayList<>();
            List<String> unread = new ArrayList<>();
            int read = 0;
            for (String name : ERRORS) {
                switch (p.counter(name)) {
                    case Reading.Present<Long>(Long v) -> {
                        read++;
                        if (v > 0) nonZero.add(name + "=" + v);
                    }
                    case Reading.Failed<Long>(String path, String cause) -> unread.add(name + " (" + cause + ")");
                    case Reading.Absent<Long>(String reason) -> unread.add(name + " (" + reason + ")");
                }
            }
            saturated(p).ifPresent(out::add);
            String expected = "all " + ERRORS.size() + " error counters 0";
            String unreadText = unread.isEmpty() ? "" : "; could not read " + unread.size() + ": " + String.join(", ", unread);
            if (read == 0) {
                // i40iw and VFs print "N/A (no PMA)": there is nothing to judge, and that must show.
                out.add(Finding.unknown(ID, p.ref(), p.counter(ERRORS.getFirst()), expected));
            } else if (!nonZero.isEmpty()) {
                // perfquery speaks to an InfiniBand port's PMA through the subnet manager's MADs: on a RoCE port
                // it fails, so there the counters are read where the kernel keeps them
                String counters = "/sys/class/infiniband/" + p.device() + "/ports/" + p.port() + "/counters";
                String fix = p.isEthernet()
                        ? Fix.lines(Fix.note("reseat or replace the cable/transceiver on " + p.ref()
                                        + " (RoCE: these counters clear only when the driver reloads), then watch whether "
                                        + "they rise again"),
                                "grep . " + ShellWord.of(counters) + "/*")
                        : Fix.lines(Fix.note("reseat or replace the cable/transceiver on " + p.ref()
                                        + ", then clear the counters and watch whether they rise again"),
                                "perfquery -x -C " + ShellWord.of(p.device()) + " -P " + p.port(),
                                "perfquery -R -C " + ShellWord.of(p.device()) + " -P " + p.port());
                out.add(Finding.of(ID, Severity.WARN, p.ref(), String.join(", ", nonZero) + unreadText, expected, fix));
            } else if (!unread.isEmpty()) {
                // the kernel creates the port's PMA counters together: one missing or garbled hides its value
                out.add(Finding.of(ID, Severity.UNKNOWN, p.ref(), read + " error counters 0" + unreadText, expected, ""));
            } else {
                out.add(Finding.pass(ID, p.ref(), read + " error counters all 0", expected));
            }
        }
        return out;
    }

    /**
     * Counters stuck at their width's maximum: a saturated counter no longer counts, so new errors on the port are
     * invisible until it is reset (perfquery -R on InfiniBand; on RoCE the kernel's counters clear with the driver).
     */
    private static java.util.Optional<Finding> saturated(RdmaPort p) {
        List<String> full = new ArrayList<>();
        for (String name : ERRORS) {
            java.util.OptionalInt bits = RdmaPort.counterBits(name);
            if (bits.isEmpty()) continue;
            long max = (1L << bits.getAsInt()) - 1;
            if (p.counter(name) instanceof Reading.Present<Long>(Long v) && v == max) {
                full.add(name + "=" + v + " (" + bits.getAsInt() + "-bit, maximum " + max + ")");
            }
        }
        if (full.isEmpty()) return java.util.Optional.empty();
        String reset = p.isEthernet()
                ? Fix.lines(Fix.note("RoCE: these counters clear only when the driver reloads; do it when the port is idle"),
                        "modprobe -r mlx5_ib && modprobe mlx5_ib")
                : Fix.lines("perfquery -R -C " + ShellWord.of(p.device()) + " -P " + p.port());
        return java.util.Optional.of(Finding.of(SATURATED, Severity.WARN, p.ref(), String.join(", ", full)
                + ": saturated: new errors are invisible until it is reset", "error counters below their maximum", reset));
    }
}
