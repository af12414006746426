package dev.railyard.cluster;

import dev.railyard.cluster.NodeRequest.Burn;
import dev.railyard.cluster.NodeRequest.Check;
import dev.railyard.cluster.NodeRequest.GpuCopy;
import dev.railyard.cluster.NodeRequest.Inventory;
import dev.railyard.cluster.NodeRequest.NcclLocal;
import dev.railyard.cluster.NodeRequest.NcclRank;
import dev.railyard.cluster.NodeRequest.RdmaClient;
import dev.railyard.cluster.NodeRequest.RdmaOptions;
import dev.railyard.cluster.NodeRequest.RdmaServer;
import dev.railyard.cluster.NodeRequest.RdmaTest;
import dev.railyard.cluster.NodeRequest.Storage;
import dev.railyard.cluster.NodeRequest.TcpClient;
import dev.railyard.cluster.NodeRequest.TcpMode;
import dev.railyard.cluster.NodeRequest.TcpServer;
import dev.railyard.model.NetInterface.RdmaPortRef;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The node protocol: a {@link NodeRequest} as the arguments of the node's {@code railyard} (the launcher puts the
 * program in front), and those arguments read back. The two directions live side by side so that they cannot drift.
 */
final class NodeArgv {

    /**
     * What marks a benchmark step as one of a validate run's (InRunLauncher): on the node such steps share its
     * benchmark lock with each other only. It says who asks, not what is asked, so {@link #read} accepts and drops it.
     */
    static final String IN_RUN = "--in-run";

    /** Options that take no value. */
    private static final Set<String> FLAGS = Set.of("--once", "--report-gbits");

    private NodeArgv() {
    }

    static List<String> write(NodeRequest request) {
        List<String> a = new ArrayList<>();
        switch (request) {
            case Inventory() -> a.addAll(List.of("inventory", "--format", "json"));
            case Check(String node, Optional<String> spec) -> {
                a.addAll(List.of("check", "--format", "json", "--node", node));
                spec.ifPresent(s -> a.addAll(List.of("--spec-base64", s)));
            }
            case TcpServer(String bind, int port, boolean once) -> {
                a.addAll(List.of("bench", "tcp", "server"));
                if (once) a.add("--once");
                a.addAll(List.of("--bind", bind, "--port", String.valueOf(port)));
            }
            case TcpClient c -> {
                a.addAll(List.of("bench", "tcp", "client", c.server(), "--port", String.valueOf(c.port()),
                        "--format", "json", "--connect-timeout", c.connectTimeout().toSeconds() + "s"));
                c.bind().ifPresent(b -> a.addAll(List.of("--bind", b)));
                if (c.mode() == TcpMode.LATENCY) a.addAll(List.of("--mode", "latency"));
                a.addAll(List.of("--duration", c.duration().toMillis() + "ms"));
                c.streams().ifPresent(s -> a.addAll(List.of("--streams", String.valueOf(s))));
            }
            case RdmaServer(RdmaOptions o) -> {
                a.addAll(List.of("bench", "rdma", "server"));
                rdma(o, a);
            }
            case RdmaClient(String server, RdmaOptions o) -> {
                a.addAll(List.of("bench", "rdma", "client", server));
                rdma(o, a);
            }
            case GpuCopy(Optional<String> size, OptionalInt iters) -> {
                a.addAll(List.of("bench", "gpu", "--format", "json"));
                size.ifPresent(s -> a.addAll(List.of("--size", s)));
                iters.ifPresent(i -> a.addAll(List.of("--iters", String.valueOf(i))));
            }
            case Storage(Optional<Double> expectMbps) -> {
                a.addAll(List.of("bench", "storage", "--format", "json"));
                expectMbps.ifPresent(e -> a.addAll(List.of("--expect-mbps", String.valueOf(e))));
            }
            case NcclLocal(String maxBytes, int gpus) -> a.addAll(List.of("bench", "nccl", "all_reduce", "-b", "8",
                    "-e", maxBytes, "-g", String.valueOf(gpus), "--format", "json"));
            case NcclRank r -> a.addAll(List.of("bench", "nccl", "all_reduce", "-b", "8", "-e", r.maxBytes(),
                    "--rank", String.valueOf(r.rank()), "--nranks", String.valueOf(r.nranks()),
                    "--device", String.valueOf(r.device()), "--rendezvous", r.rendezvous(), "--format", "json"));
            case Burn(Duration duration) -> a.addAll(List.of("burn", "--duration", duration.toSeconds() + "s",
                    "--format", "json"));
        }
        return List.copyOf(a);
    }

    private static void rdma(RdmaOptions o, List<String> a) {
        a.addAll(List.of("--test", o.test().perftestName, "--report-gbits", "--format", "json",
                "--timeout", String.valueOf(o.timeoutSeconds())));
        o.durationSeconds().ifPresent(d -> a.addAll(List.of("--duration", String.valueOf(d))));
        o.netdev().ifPresent(n -> a.addAll(List.of("--netdev", n)));
        o.port().ifPresent(p -> a.addAll(List.of("--ib-dev", p.device(), "--ib-port", String.valueOf(p.port()))));
    }

    /** {@code argv} marked as a step of run {@code runId} when it runs a benchmark; other steps unchanged. */
    static List<String> inRun(List<String> argv, String runId) {
        if (argv.isEmpty() || !argv.getFirst().equals("bench")) return argv;
        List<String> out = new ArrayList<>(argv);
        out.addAll(List.of(IN_RUN, runId));
        return List.copyOf(out);
    }

    /** The request these arguments ask for; IllegalArgumentException naming what is not part of the protocol. */
    static NodeRequest read(List<String> argv) {
        String head = String.join(" ", argv.subList(0, Math.min(3, argv.size())));
        if (head.startsWith("inventory")) return new Options(argv, 1, 0).inventory();
        if (head.startsWith("check")) return new Options(argv, 1, 0).check();
        if (head.startsWith("bench tcp server")) return new Options(argv, 3, 0).tcpServer();
        if (head.startsWith("bench tcp client")) return new Options(argv, 3, 1).tcpClient();
        if (head.startsWith("bench rdma server")) return new RdmaServer(new Options(argv, 3, 0).rdma());
        if (head.startsWith("bench rdma client")) {
            Options o = new Options(argv, 3, 1);
            return new RdmaClient(o.positional, o.rdma());
        }
        if (head.startsWith("bench gpu")) return new Options(argv, 2, 0).gpuCopy();
        if (head.startsWith("bench storage")) return new Options(argv, 2, 0).storage();
        if (head.startsWith("bench nccl all_reduce")) return new Options(argv, 3, 0).nccl();
        if (head.startsWith("burn")) return new Options(argv, 1, 0).burn();
        throw new IllegalArgumentException("not a node request: " + String.join(" ", argv));
    }

    /** The options after a request's command words, each read once; one left unread is not part of the protocol. */
    private static final class Options {
        private final List<String> argv;
        private final Map<String, String> values = new HashMap<>();
        private final String positional;

        Options(List<String> argv, int commandWords, int positionals) {
            this.argv = argv;
            String pos = null;
            for (int i = commandWords; i < argv.size(); i++) {
                String word = argv.get(i);
                if (!word.startsWith("-")) {
                    if (positionals == 0 || pos != null) throw unexpected(word);
                    pos = word;
                } else if (FLAGS.contains(word)) {
                    values.put(word, "");
                } else if (i + 1 < argv.size()) {
                    if (values.put(word, argv.get(++i)) != null) throw unexpected(word + " twice");
                } else {
                    throw unexpected(word + " without a value");
                }
            }
            if (positionals == 1 && pos == null) throw unexpected("no server address");
            if (argv.getFirst().equals("bench")) values.remove(IN_RUN);
            this.positional = pos;
        }

        Inventory inventory() {
            require("--format", "json");
            return done(new Inventory());
        }

        Check check() {
            require("--format", "json");
            return done(new Check(value("--node"), optional("--spec-base64")));
        }

        TcpServer tcpServer() {
            boolean once = values.remove("--once") != null;
            return done(new TcpServer(value("--bind"), integer("--port"), once));
        }

        TcpClient tcpClient() {
            require("--format", "json");
            TcpMode mode = optional("--mode").map(m -> switch (m) {
                case "latency" -> TcpMode.LATENCY;
                default -> throw unexpected("--mode " + m);
            }).orElse(TcpMode.BANDWIDTH);
            return done(new TcpClient(positional, integer("--port"), Duration.ofSeconds(number(value("--connect-timeout"), "s")),
                    optional("--bind"), mode, Duration.ofMillis(number(value("--duration"), "ms")),
                    optional("--streams").map(s -> OptionalInt.of(Integer.parseInt(s))).orElse(OptionalInt.empty())));
        }

        RdmaOptions rdma() {
            require("--format", "json");
            if (values.remove("--report-gbits") == null) throw unexpected("no --report-gbits");
            String test = value("--test");
            RdmaTest t = java.util.Arrays.stream(RdmaTest.values()).filter(x -> x.perftestName.equals(test)).findFirst()
                    .orElseThrow(() -> unexpected("--test " + test));
            long timeout = Long.parseLong(value("--timeout"));
            OptionalLong duration = optional("--duration").map(d -> OptionalLong.of(Long.parseLong(d))).orElse(OptionalLong.empty());
            Optional<String> netdev = optional("--netdev");
            Optional<String> dev = optional("--ib-dev");
            Optional<RdmaPortRef> port = dev.map(d -> new RdmaPortRef(d, integer("--ib-port")));
            return done(new RdmaOptions(t, timeout, duration, netdev, port));
        }

        GpuCopy gpuCopy() {
            require("--format", "json");
            Optional<String> size = optional("--size");
            OptionalInt iters = optional("--iters").map(s -> OptionalInt.of(Integer.parseInt(s))).orElse(OptionalInt.empty());
            return done(new GpuCopy(size, iters));
        }

        Storage storage() {
            require("--format", "json");
            return done(new Storage(optional("--expect-mbps").map(Double::parseDouble)));
        }

        NodeRequest nccl() {
            require("--format", "json");
            require("-b", "8");
            String maxBytes = value("-e");
            if (values.containsKey("-g")) return done(new NcclLocal(maxBytes, integer("-g")));
            return done(new NcclRank(maxBytes, integer("--rank"), integer("--nranks"), integer("--device"),
                    value("--rendezvous")));
        }

        Burn burn() {
            require("--format", "json");
            return done(new Burn(Duration.ofSeconds(number(value("--duration"), "s"))));
        }

        private <T> T done(T request) {
            if (!values.isEmpty()) throw unexpected(String.join(", ", values.keySet()));
            return request;
        }

        private void require(String option, String expected) {
            String v = value(option);
            if (!v.equals(expected)) throw unexpected(option + " " + v);
        }

        private String value(String option) {
            String v = values.remove(option);
            if (v == null) throw unexpected("no " + option);
            return v;
        }

        private Optional<String> optional(String option) {
            return Optional.ofNullable(values.remove(option));
        }

        private int integer(String option) {
            return Integer.parseInt(value(option));
        }

        private long number(String text, String unit) {
            if (!text.endsWith(unit)) throw unexpected(text + " (expected a number of " + unit + ")");
            return Long.parseLong(text.substring(0, text.length() - unit.length()));
        }

        private IllegalArgumentException unexpected(String what) {
            return new IllegalArgumentException("not a node request (" + what + "): " + String.join(" ", argv));
        }
    }
}
