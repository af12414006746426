package dev.railyard.bench.perftest;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One side of a perftest server/client pair as {@code railyard bench rdma} runs it: the test, the side, the port
 * chosen for it, and the user's options. Both sides must run the same test with the same size and direction, so
 * {@link #peerHint()} spells out the command for the other side.
 */
public record PerftestPair(Test test, Side side, PortChoice choice, Optional<String> serverAddress,
                           boolean bidirectional, boolean reportGbits, OptionalLong sizeBytes,
                           OptionalInt durationSeconds, boolean pinToNuma) {

    public PerftestPair {
        if (side == Side.CLIENT && serverAddress.isEmpty()) {
            throw new IllegalArgumentException("a client needs the server's address");
        }
    }

    /** The tests `bench rdma --test` offers, named as the seeds' tables name them. */
    public enum Test {
        WRITE_BW(PerftestRunner.Tool.IB_WRITE_BW), WRITE_LAT(PerftestRunner.Tool.IB_WRITE_LAT),
        READ_BW(PerftestRunner.Tool.IB_READ_BW), SEND_BW(PerftestRunner.Tool.IB_SEND_BW);

        private final PerftestRunner.Tool tool;

        Test(PerftestRunner.Tool tool) {
            this.tool = tool;
        }

        public PerftestRunner.Tool tool() {
            return tool;
        }

        public String flag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public enum Side { SERVER, CLIENT }

    public PerftestRunner.Plan plan(Duration timeout) {
        return new PerftestRunner.Plan(test.tool(), choice.port(), pinToNuma ? choice.numaNode() : OptionalInt.empty(),
                reportGbits, bidirectional, side == Side.CLIENT ? serverAddress : Optional.empty(), timeout,
                new PerftestRunner.Tuning(choice.gidIndex(), sizeBytes, durationSeconds));
    }

    /** What to run on the other node so the pair matches (same test, size, direction). */
    public String peerHint() {
        StringBuilder sb = new StringBuilder("railyard bench rdma ");
        if (side == Side.SERVER) {
            sb.append("client ").append(choice.ipv4Address().orElse("<this node's fabric address>"));
        } else {
            sb.append("server");
        }
        sb.append(" --test ").append(test.flag());
        sizeBytes.ifPresent(s -> sb.append(" --size ").append(s));
        durationSeconds.ifPresent(d -> sb.append(" --duration ").append(d));
        if (bidirectional) sb.append(" --bidirectional");
        return sb.toString();
    }
}
