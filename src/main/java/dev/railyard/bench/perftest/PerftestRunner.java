package dev.railyard.bench.perftest;

import dev.railyard.model.PerftestResult;

import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaPort;
import dev.railyard.platform.CommandRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Runs one side of a perftest pair with the device, port and GID index taken from the inventory, pinned to the
 * HCA's NUMA node when it is known (a remote-node CPU costs bandwidth and latency), and parses what it prints.
 */
public final class PerftestRunner {

    public enum Tool {
        IB_WRITE_BW("ib_write_bw"), IB_READ_BW("ib_read_bw"), IB_SEND_BW("ib_send_bw"),
        IB_WRITE_LAT("ib_write_lat"), IB_READ_LAT("ib_read_lat"), IB_SEND_LAT("ib_send_lat");

        private final String binary;

        Tool(String binary) {
            this.binary = binary;
        }

        public String binary() {
            return binary;
        }

        public boolean isBandwidth() {
            return binary.endsWith("_bw");
        }
    }

    /** What to run: {@code server} empty means this side listens; otherwise it connects to that address. */
    public record Plan(Tool tool, RdmaPort port, OptionalInt numaNode, boolean reportGbits, boolean bidirectional,
                       Optional<String> server, Duration timeout, Tuning tuning) {

        public Plan(Tool tool, RdmaPort port, OptionalInt numaNode, boolean reportGbits, boolean bidirectional,
                    Optional<String> server, Duration timeout) {
            this(tool, port, numaNode, reportGbits, bidirectional, server, timeout, Tuning.NONE);
        }
    }

    /**
     * What the user chose over perftest's defaults: a GID index (instead of the port's first RoCE v2 IPv4 GID),
     * the message size (-s) and a time-limited run (-D). Both sides must pass the same size.
     */
    public record Tuning(OptionalInt gidIndex, OptionalLong sizeBytes, OptionalInt durationSeconds) {
        public static final Tuning NONE = new Tuning(OptionalInt.empty(), OptionalLong.empty(), OptionalInt.empty());
    }

    /** The argv that ran, the parsed output, and how the process ended. */
    public record Run(List<String> argv, PerftestResult result, int exitCode, boolean timedOut) {}

    private static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:";

    private final CommandRunner runner;
    private final Optional<Path> binDir;

    /** {@code binDir}: where the perftest binaries are; empty = look them up on PATH. */
    public PerftestRunner(CommandRunner runner, Optional<Path> binDir) {
        this.runner = runner;
        this.binDir = binDir;
    }

    public List<String> argv(Plan plan) {
        List<String> argv = new ArrayList<>();
        plan.numaNode().ifPresent(n -> argv.addAll(List.of("numactl", "--cpunodebind=" + n, "--membind=" + n)));
        argv.add(binDir.map(d -> d.resolve(plan.tool().binary()).toString()).orElse(plan.tool().binary()));
        RdmaPort port = plan.port();
        argv.add("--ib-dev=" + port.device());
        argv.add("--ib-port=" + port.port());
        Tuning t = plan.tuning();
        if (t.gidIndex().isPresent()) argv.add("--gid-index=" + t.gidIndex().getAsInt());
        else gidIndex(port).ifPresent(g -> argv.add("--gid-index=" + g));
        t.sizeBytes().ifPresent(s -> argv.add("--size=" + s));
        t.durationSeconds().ifPresent(d -> argv.add("--duration=" + d));
        if (plan.reportGbits() && plan.tool().isBandwidth()) argv.add("--report_gbits");
        if (plan.bidirectional() && plan.tool().isBandwidth()) argv.add("-b");
        plan.server().ifPresent(argv::add);
        return argv;
    }

    public Run run(Plan plan) {
        List<String> argv = argv(plan);
        CommandRunner.Result res = runner.run(argv, plan.timeout());
        if (res.notFound()) {
            boolean numactl = plan.numaNode().isPresent() && argv.getFirst().equals("numactl");
            String program = numactl ? "numactl" : plan.tool().binary();
            throw new RailyardException.MissingPrerequisite(program + " could not be started: " + res.startError(),
                    numactl ? "install the numactl package (apt install numactl / dnf install numactl)"
                            : "install the perftest package (apt install perftest / dnf install perftest)");
        }
        PerftestResult parsed = new PerftestParser().parse(res.stdout() + "\n" + res.stderr());
        return new Run(argv, parsed, res.exitCode(), res.timedOut());
    }

    /**
     * RoCE needs the index of the port's RoCE v2 GID that carries its IPv4 address (the seeds' --gid-index=2);
     * InfiniBand addresses by LID and needs none.
     */
    static Optional<Integer> gidIndex(RdmaPort port) {
        if (!port.isEthernet()) return Optional.empty();
        return Optional.of(port.gids().stream()
                .filter(g -> g.type().optional().map(t -> t == RdmaPort.GidType.ROCE_V2).orElse(false))
                .filter(g -> g.gid().toLowerCase().startsWith(IPV4_MAPPED))
                .mapToInt(RdmaPort.Gid::index).min()
                .orElseThrow(() -> new RailyardException.Usage(
                        port.ref() + " has no RoCE v2 GID with an IPv4 address",
                        "give the port's netdev an IPv4 address, then check `show_gids`")));
    }
}
