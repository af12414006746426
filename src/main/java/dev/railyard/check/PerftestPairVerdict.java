package dev.railyard.check;

import dev.railyard.bench.perftest.PerftestPair;
import dev.railyard.model.PerftestResult;
import dev.railyard.bench.perftest.PerftestRunner;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.Locale;
import java.util.Optional;

/**
 * The bench.rdma.* finding for one side of a pair. perftest's own table is judged by {@link BenchVerdicts}; this
 * adds what only the runner knows: the process timed out or exited non-zero without a recognised error, the link
 * rate is unknown, or this is a server whose tool prints no table (the client reports the result).
 */
public record PerftestPairVerdict(Optional<Double> linkGbps, double efficiency, double latencyUs) {

    public Finding judge(PerftestPair pair, PerftestRunner.Run run) {
        String subject = pair.choice().port().ref() + " " + pair.test().tool().binary() + " "
                + pair.side().name().toLowerCase(Locale.ROOT);
        boolean bw = pair.test().tool().isBandwidth();
        String id = bw ? BenchVerdicts.RDMA_BW : BenchVerdicts.RDMA_LAT;
        PerftestResult r = run.result();
        boolean noRows = bw ? r.bandwidth().isEmpty() : r.latency().isEmpty();
        if (!r.failed() && noRows) {
            if (run.timedOut()) {
                return new Finding(id, Severity.FAIL, subject, "no result before the timeout", "a result table",
                        pair.side() == PerftestPair.Side.SERVER
                                ? Fix.note("no client connected: on the other node run " + pair.peerHint())
                                : Fix.lines(Fix.note("the server did not answer in time: start it first, then this "
                                        + "side; its address must answer from here:"), "ip -br addr", "rdma link show"));
            }
            if (run.exitCode() != 0) {
                return new Finding(id, Severity.FAIL, subject, "perftest exited with " + run.exitCode(),
                        "exit 0 and a result table",
                        Fix.lines(Fix.note("perftest's error is in its output above; both sides need the same "
                                + "options; the ports:"), "rdma link show"));
            }
            if (pair.side() == PerftestPair.Side.SERVER) {
                return new Finding(id, Severity.INFO, subject, "server finished; the client prints the result",
                        "a result on the client", "");
            }
        }
        if (!bw) return BenchVerdicts.rdmaLatency(subject, r, latencyUs);
        if (linkGbps.isEmpty() && !r.failed()) {
            String observed = r.largestBandwidthRow().map(row -> String.format(Locale.ROOT, "%.1f Gb/s at %d B",
                    row.averageGbps(), row.bytes())).orElse("no bandwidth table");
            return new Finding(id, Severity.UNKNOWN, subject, observed + "; the link rate is unknown",
                    String.format(Locale.ROOT, ">= %.0f%% of the link rate", efficiency * 100),
                    Fix.lines(Fix.note("give the rate with --spec FILE --network NAME (its rate_gbps); the ports' "
                            + "rates as the kernel reports them:"), Fix.RDMA_RATES));
        }
        return BenchVerdicts.rdmaBandwidth(subject, r, linkGbps.orElse(0.0), efficiency);
    }
}
