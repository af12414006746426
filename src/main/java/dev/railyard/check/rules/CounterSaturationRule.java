package dev.railyard.check.rules;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * rdma.counters.saturated: an error counter stuck at its width's maximum no longer counts, so new errors on the port
 * are invisible until it is reset (perfquery -R on InfiniBand; on RoCE the kernel's counters clear with the driver).
 */
public final class CounterSaturationRule implements Rule {

    public static final CheckId ID = CheckId.RDMA_COUNTERS_SATURATED;

    @Override
    public CheckId id() {
        return ID;
    }

    @Override
    public String reads() {
        return "RdmaPort PMA error counters and each counter's width (RdmaPort.counterBits)";
    }

    @Override
    public String thresholds() {
        return "2^bits - 1: link_downed 255, symbol_error 65535, excessive_buffer_overrun_errors 15";
    }

    @Override
    public String severities() {
        return "a counter at its maximum: WARN (advice)";
    }

    @Override
    public String fix() {
        return "reset the counters: perfquery -R on InfiniBand, a driver reload on RoCE";
    }

    /** Empty where no counter is at its maximum. */
    public static Optional<Verdict> judge(RdmaPort p) {
        List<String> full = new ArrayList<>();
        for (String name : RdmaCountersRule.ERRORS) {
            OptionalInt bits = RdmaPort.counterBits(name);
            if (bits.isEmpty()) continue;
            long max = (1L << bits.getAsInt()) - 1;
            if (p.counter(name) instanceof Reading.Present<Long>(Long v) && v == max) {
                full.add(name + "=" + v + " (" + bits.getAsInt() + "-bit, maximum " + max + ")");
            }
        }
        if (full.isEmpty()) return Optional.empty();
        String reset = p.isEthernet()
                ? Fix.lines(Fix.note("RoCE: these counters clear only when the driver reloads; do it when the port is idle"),
                        "modprobe -r mlx5_ib && modprobe mlx5_ib")
                : Fix.lines("perfquery -R -C " + ShellWord.of(p.device()) + " -P " + p.port());
        return Optional.of(new Verdict(ID, Severity.WARN, String.join(", ", full)
                + ": saturated: new errors are invisible until it is reset", "error counters below their maximum", reset));
    }
}
