package dev.railyard.check;

import dev.railyard.check.rules.TcpBandwidthRule;
import dev.railyard.check.rules.TcpLatencyRule;
import dev.railyard.model.BandwidthResult;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.LatencyResult;
import dev.railyard.model.ReceiverReport;
import dev.railyard.model.TcpResult;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * bench.tcp.bw and bench.tcp.lat for one `railyard bench tcp` run: its facts handed to {@link TcpBandwidthRule} and
 * {@link TcpLatencyRule} with the spec's expect.tcp_gbps and expect.tcp_latency_us. Bandwidth is what the server
 * received when it said so (what arrived, as iperf3's receiver line), else what was sent; latency the one-way
 * average (round trip / 2, as sockperf).
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

    /** The measured bandwidth: received when the server reported it, else sent. */
    public static double gbps(BandwidthResult b) {
        return b.receiver().optional().map(ReceiverReport::gbitsPerSecond).orElse(b.senderGbitsPerSecond());
    }

    private static Finding bandwidth(String subject, BandwidthResult b, Optional<Double> spec) {
        double gbps = gbps(b);
        String side = b.receiver().optional().isPresent() ? "received" : "sent";
        String observed = String.format(Locale.ROOT, "%.2f Gb/s %s over %d stream%s", gbps, side, b.streams(),
                b.streams() == 1 ? "" : "s");
        OptionalDouble floor = TcpBandwidthRule.floor(spec, OptionalDouble.empty());
        if (!b.stop().complete()) {
            return TcpBandwidthRule.stoppedEarly(observed + ", run stopped early: "
                    + b.stop().kind().name().toLowerCase(Locale.ROOT), floor).on(subject);
        }
        return TcpBandwidthRule.judge(gbps, floor).measured(observed).on(subject);
    }

    private static Finding latency(String subject, LatencyResult l, Optional<Double> spec) {
        String observed = String.format(Locale.ROOT, "%.2f µs one-way average (p99 %.2f µs), %d-byte messages",
                l.oneWay().avgMicros(), l.oneWay().p99Micros(), l.msgSize());
        OptionalDouble ceiling = TcpLatencyRule.ceiling(spec, OptionalDouble.empty(), TcpLatencyRule.DEFAULT_K);
        if (!l.stop().complete() || l.oneWay().samples() == 0) {
            return TcpLatencyRule.stoppedEarly(observed + ", run stopped early", ceiling).on(subject);
        }
        return TcpLatencyRule.judge(l.oneWay().avgMicros(), ceiling).measured(observed).on(subject);
    }
}
