package dev.railyard.check;

import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * soak.counters: an RDMA port's error counters read before the soak and after it. A counter that grew under sustained
 * traffic is a fault even when every bandwidth figure was fine: a link that takes symbol errors or retrains under
 * load is the one that breaks a training job hours later. A counter that went down was cleared during the window,
 * and one stuck at its width's maximum cannot show growth: both are UNKNOWN, never PASS.
 */
public final class SoakCounterGrowth {

    static final String ID = CheckId.SOAK_COUNTERS.id();

    private SoakCounterGrowth() {
    }

    /** One port's counters as one node read them ({@code port} is "mlx5_0:1"). */
    public record PortCounters(String port, Map<String, Reading<Long>> counters) {
        public PortCounters {
            counters = Map.copyOf(counters);
        }
    }

    /** The counters the soak compares: the PMA error counters rdma.counters judges at rest. */
    public static List<String> errorCounters() {
        return dev.railyard.check.rules.RdmaCountersRule.ERRORS;
    }

    /**
     * Findings for one node: {@code before} from its inventory as the run began, {@code after} once the soak ended,
     * or empty with why it could not be read then.
     */
    public static List<Finding> judge(String node, Duration window, List<PortCounters> before,
                                      Reading<List<PortCounters>> after) {
        String during = "during the " + window(window) + " soak";
        if (!(after instanceof Reading.Present<List<PortCounters>>(List<PortCounters> now))) {
            if (before.isEmpty()) return List.of();
            return List.of(Finding.of(ID, Severity.UNKNOWN, node, "counters not read after the soak: " + after.describe(),
                    "no error counter growing " + during, ""));
        }
        List<Finding> out = new ArrayList<>();
        int compared = 0;
        for (PortCounters was : before) {
            Optional<PortCounters> is = now.stream().filter(p -> p.port().equals(was.port())).findFirst();
            String subject = node + " " + was.port();
            if (is.isEmpty()) {
                out.add(Finding.of(ID, Severity.UNKNOWN, subject, "the port was gone when the soak ended",
                        "no error counter growing " + during, ""));
                continue;
            }
            for (String counter : errorCounters()) {
                Reading<Long> a = was.counters().getOrDefault(counter, Reading.absent("no counter " + counter));
                Reading<Long> b = is.get().counters().getOrDefault(counter, Reading.absent("no counter " + counter));
                if (a instanceof Reading.Absent<Long> && b instanceof Reading.Absent<Long>) continue;
                String what = subject + " " + counter;
                if (!(a instanceof Reading.Present<Long>(Long x)) || !(b instanceof Reading.Present<Long>(Long y))) {
                    out.add(Finding.of(ID, Severity.UNKNOWN, what, "before: " + a.describe() + ", after: " + b.describe(),
                            "no growth " + during, ""));
                    continue;
                }
                OptionalInt bits = RdmaPort.counterBits(counter);
                long max = bits.isPresent() ? (1L << bits.getAsInt()) - 1 : Long.MAX_VALUE;
                if (y > x) {
                    out.add(Finding.of(ID, Severity.FAIL, what, "+" + (y - x) + " " + during + " (" + x + " -> " + y + ")",
                            "no growth " + during, fix(node, was.port(), counter)));
                } else if (y < x) {
                    out.add(Finding.of(ID, Severity.UNKNOWN, what, "went down " + during + " (" + x + " -> " + y
                            + "): cleared while the soak ran, so growth cannot be told", "no growth " + during, ""));
                } else if (x == max) {
                    out.add(Finding.of(ID, Severity.UNKNOWN, what, "stuck at its maximum " + x + ": growth cannot be seen",
                            "no growth " + during, Fix.lines(
                                    Fix.note("clear the port's counters, then run the soak again (on " + node + "):"),
                                    "perfquery -R -C " + ShellWord.of(device(was.port())) + " -P " + portNumber(was.port()))));
                } else {
                    compared++;
                }
            }
        }
        if (out.stream().noneMatch(f -> f.severity() != Severity.PASS) && compared > 0) {
            out.add(Finding.pass(ID, node, compared + " error counters on " + before.size() + " port"
                    + (before.size() == 1 ? "" : "s") + " unchanged " + during, "no growth " + during));
        }
        return out;
    }

    private static String fix(String node, String port, String counter) {
        String dir = "/sys/class/infiniband/" + device(port) + "/ports/" + portNumber(port);
        return Fix.lines(
                Fix.note("on " + node + ": " + counter + " grows under load on " + port + ": reseat or replace its cable "
                        + "or transceiver (and the switch port's), then soak again; the counters now, and the link's "
                        + "error history from the HCA:"),
                "grep . " + ShellWord.of(dir + "/counters") + "/*",
                "mlxlink -d " + ShellWord.of(device(port)) + " -p " + portNumber(port) + " -c");
    }

    /** "10m", "2h", "90s": the window as the user wrote it on the command line. */
    static String window(Duration d) {
        long s = d.toSeconds();
        if (s >= 3600 && s % 3600 == 0) return s / 3600 + "h";
        if (s >= 60 && s % 60 == 0) return s / 60 + "m";
        return s + "s";
    }

    private static String device(String port) {
        int colon = port.lastIndexOf(':');
        return colon < 0 ? port : port.substring(0, colon);
    }

    private static String portNumber(String port) {
        int colon = port.lastIndexOf(':');
        return colon < 0 ? "1" : port.substring(colon + 1);
    }
}
