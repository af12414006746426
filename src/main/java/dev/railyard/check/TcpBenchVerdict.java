package dev.railyard.check;

import dev.railyard.model.BandwidthResult;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.Severity;
import dev.railyard.model.TcpResult;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * bench.tcp.bw and bench.tcp.lat: railyard's TCP benchmark against the spec's expect.tcp_gbps and
 * expect.tcp_latency_us. Bandwidth is judged by what the server received when it said so (what arrived, as iperf3's
 * receiver line), else by what was sent; latency by the one-way average (round trip / 2, as sockperf).
 */
public final class TcpBenchVerdict {

    public static final String BW = CheckId.BENCH_TCP_BW.id();
    public static final String LAT = CheckId.BENCH_TCP_LAT.id();

    private TcpBenchVerdict() {
    }

    /** One finding for the run: INFO without a threshold, UNKNOWN when the run stopped early. */
    public static List<Finding> judge(String subject, TcpResult r, Optional<Double> floorGbps,
                                      Optional<Double> ceilingUs) {
        return List.of(switch (r) {
            case BandwidthResult b -> bandwidth(subject, b, floorGbps);
            case LatencyResult l -> latency(subject, l, ceilingUs);
        });
    }

    private static Finding bandwidth(String subject, BandwidthResult b, Optional<Double> floor) {
        Optional<ReceiverReport> received = b.receiver().optional();
        double gbps = received.map(ReceiverReport::gbitsPerSecond).orElse(b.senderGbitsPerSecond());
        String side = received.isPresent() ? "received" : "sent";
        String observed = String.format(Locale.ROOT, "%.2f Gb/s %s over %d stream%s", gbps, side, b.streams(),
                b.streams() == 1 ? "" : "s");
        String expected = floor.map(f -> String.format(Locale.ROOT, ">= %.2f Gb/s", f))
                .orElse("no bandwidth expectation (expect.tcp_gbps in the spec, or --expect-gbps)");
        if (!b.stop().complete()) return new Finding(BW, Severity.UNKNOWN, subject, observed + ", run stopped early: "
                + b.stop().kind().name().toLowerCase(Locale.ROOT), expected,
                Fix.note("the run stopped before its --duration was up: run the same command again"));
        if (floor.isEmpty()) return new Finding(BW, Severity.INFO, subject, observed, expected, "");
        if (gbps >= floor.get()) return Finding.pass(BW, subject, observed, expected);
        return new Finding(BW, Severity.FAIL, subject, observed, expected,
                Fix.lines(Fix.note("one stream rarely fills a fast link: try --streams 4; then on both ends the "
                        + "link speed (Mb/s), the MTU and the socket buffers:"), Fix.NET_SPEEDS,
                        "railyard check --only host.net"));
    }

    private static Finding latency(String subject, LatencyResult l, Optional<Double> ceiling) {
        String observed = String.format(Locale.ROOT, "%.2f µs one-way average (p99 %.2f µs), %d-byte messages",
                l.oneWay().avgMicros(), l.oneWay().p99Micros(), l.msgSize());
        String expected = ceiling.map(c -> String.format(Locale.ROOT, "<= %.2f µs", c))
                .orElse("no latency expectation (expect.tcp_latency_us in the spec, or --expect-latency-us)");
        if (!l.stop().complete() || l.oneWay().samples() == 0) {
            return new Finding(LAT, Severity.UNKNOWN, subject, observed + ", run stopped early", expected,
                    Fix.note("the run stopped before its --duration was up: run the same command again"));
        }
        if (ceiling.isEmpty()) return new Finding(LAT, Severity.INFO, subject, observed, expected, "");
        if (l.oneWay().avgMicros() <= ceiling.get()) return Finding.pass(LAT, subject, observed, expected);
        return new Finding(LAT, Severity.FAIL, subject, observed, expected,
                Fix.lines(Fix.GOVERNOR_NOW, "grep . /sys/class/net/*/device/numa_node",
                        Fix.note("then run both ends under numactl --cpunodebind=N --membind=N, N the NIC's node above, "
                                + "and lower the NIC's interrupt coalescing (ethtool -C)")));
    }
}
