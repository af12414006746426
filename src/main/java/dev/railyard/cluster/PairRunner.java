package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.Reading;
import dev.railyard.platform.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Runs one pair test through the launcher. RDMA: the server end started with {@link Launcher#start}, then the client
 * run to completion, then the server awaited (and killed if it lingers); an RDMA client that found no server yet is
 * started again until a deadline. TCP: one server per node and network serves every client run of the stage
 * (started on first use, started again if it died, closed with the runner), so a pair costs one Railyard start
 * instead of two: on the 8-host namespace cluster the starts were most of a pair's fixed cost. The TCP client polls
 * the server's port ({@code --connect-timeout}) so no fixed sleep sits between the two.
 */
final class PairRunner implements AutoCloseable {

    /** How long a client keeps trying to reach a server that is still starting (a JVM over ssh: seconds). */
    static final Duration SERVER_START = Duration.ofSeconds(20);

    private final Launcher launcher;
    private final ClusterSpec spec;
    private final ValidateSettings settings;
    private final Clock clock;
    /** perftest's control port (18515) is one per node: RDMA servers of different networks on one node take turns. */
    private final Map<String, Semaphore> rdmaServerLocks = new ConcurrentHashMap<>();

    /** The stage's TCP servers by node, address and port; a node serves one client at a time per network. */
    private final Map<String, RemoteProcess> tcpServers = new ConcurrentHashMap<>();
    /** A TCP server lives through the stage: its timeout is the stage's, not one step's. */
    private final Duration tcpServerTimeout;

    PairRunner(Launcher launcher, ClusterSpec spec, ValidateSettings settings, Clock clock, int rounds) {
        this.launcher = launcher;
        this.spec = spec;
        this.settings = settings;
        this.clock = clock;
        // every round of every kind, and the retests, each at most a step timeout
        this.tcpServerTimeout = settings.stepTimeout().multipliedBy(2L * Math.max(1, rounds) * 2 + 1);
    }

    PairResult run(PairTest test, int round, int attempt, int port) throws InterruptedException {
        Instant startedAt = clock.now();
        long t0 = clock.nanoTime();
        PairOutcome outcome = switch (test.kind()) {
            case TCP_BANDWIDTH, TCP_LATENCY -> runTcp(test, port);
            case RDMA_BANDWIDTH, RDMA_LATENCY -> {
                Semaphore lock = rdmaServerLocks.computeIfAbsent(test.server(), k -> new Semaphore(1));
                lock.acquire();
                try {
                    yield runPair(test, rdmaArgs(test, "server"), rdmaArgs(test, "client"));
                } finally {
                    lock.release();
                }
            }
        };
        return new PairResult(test, round, attempt, outcome, startedAt, Duration.ofNanos(clock.nanoTime() - t0));
    }

    private PairOutcome runPair(PairTest test, List<String> serverArgs, List<String> clientArgs) throws InterruptedException {
        ClusterSpec.Node server = node(test.server());
        ClusterSpec.Node client = node(test.client());
        try (RemoteProcess srv = launcher.start(server, serverArgs, settings.stepTimeout())) {
            StepResult c = launcher.run(client, clientArgs, settings.stepTimeout());
            long deadline = clock.nanoTime() + SERVER_START.toNanos();
            while (isRdma(test) && refused(c) && srv.isAlive() && clock.nanoTime() < deadline) {
                c = launcher.run(client, clientArgs, settings.stepTimeout());
            }
            StepResult s = srv.await(Duration.ofSeconds(5));
            return outcome(test, c, s);
        }
    }

    private PairOutcome runTcp(PairTest test, int port) throws InterruptedException {
        String key = test.server() + " " + test.serverAddress() + ":" + port;
        RemoteProcess srv = tcpServers.get(key);
        if (srv == null || !srv.isAlive()) {
            if (srv != null) srv.close();
            srv = launcher.start(node(test.server()), tcpServer(test, port), tcpServerTimeout);
            tcpServers.put(key, srv);
        }
        StepResult c = launcher.run(node(test.client()), tcpClient(test, port), settings.stepTimeout());
        // the server's own ending says why a client failed only when it ended; a running one has nothing to add
        StepResult s = srv.isAlive()
                ? new StepResult(test.server(), List.of(), StepStatus.INTERRUPTED, -1, "", "", Duration.ZERO, "serving")
                : srv.await(Duration.ZERO);
        return outcome(test, c, s);
    }

    /** Whether the transport still reaches a node (after a failed pair): see {@link Launcher#reach}. */
    StepResult reach(String nodeName) throws InterruptedException {
        Duration timeout = settings.stepTimeout().compareTo(REACH_TIMEOUT) < 0 ? settings.stepTimeout() : REACH_TIMEOUT;
        return launcher.reach(node(nodeName), timeout);
    }

    /** A transport round trip to a live node takes well under a second; ssh's own connect timeout is 10 s at most. */
    static final Duration REACH_TIMEOUT = Duration.ofSeconds(30);

    /** Stops the stage's TCP servers (a server that outlived its clients is no failure). */
    @Override
    public void close() {
        tcpServers.values().forEach(RemoteProcess::close);
        tcpServers.clear();
    }

    static PairOutcome outcome(PairTest test, StepResult client, StepResult server) {
        if (!client.completed()) {
            String why = client.status() == StepStatus.EXITED ? lastLine(client.stderr(), "client exited " + client.exitCode())
                    : client.status().name().toLowerCase() + ": " + client.detail();
            if (!server.completed() && server.status() != StepStatus.TIMED_OUT && server.status() != StepStatus.INTERRUPTED) {
                why += "; server " + test.server() + ": " + (server.status() == StepStatus.EXITED
                        ? lastLine(server.stderr(), "exited " + server.exitCode()) : server.detail());
            }
            return new PairOutcome.Failed(why);
        }
        Reading<JsonNode> json = StepJson.parse(client.stdout());
        if (!(json instanceof Reading.Present<JsonNode>(JsonNode root))) return new PairOutcome.Failed(json.describe());
        OptionalDouble v = value(test, root);
        if (v.isEmpty()) {
            return new PairOutcome.Failed("no " + test.kind().unit() + " figure in the client's output"
                    + failures(root));
        }
        return new PairOutcome.Measured(v.getAsDouble());
    }

    /** The figure of one kind from the client's JSON. */
    static OptionalDouble value(PairTest test, JsonNode root) {
        return switch (test.kind()) {
            case TCP_BANDWIDTH -> {
                JsonNode rx = root.path("receiver").path("gbitsPerSecond");
                JsonNode tx = root.path("senderGbitsPerSecond");
                yield rx.isNumber() ? OptionalDouble.of(rx.asDouble()) : tx.isNumber() ? OptionalDouble.of(tx.asDouble())
                        : OptionalDouble.empty();
            }
            case TCP_LATENCY -> number(root.path("oneWay").path("p50Micros"));
            case RDMA_BANDWIDTH -> {
                OptionalDouble best = OptionalDouble.empty();
                for (JsonNode row : root.path("result").path("bandwidth")) {
                    if (!row.path("average").isNumber()) continue;
                    double gbps = row.path("average").asDouble() * ("GBIT_PER_SEC".equals(row.path("unit").asText())
                            ? 1.0 : 1_048_576.0 * 8 / 1e9);
                    if (best.isEmpty() || gbps > best.getAsDouble()) best = OptionalDouble.of(gbps);
                }
                yield best;
            }
            case RDMA_LATENCY -> {
                for (JsonNode row : root.path("result").path("latency")) {
                    OptionalDouble t = number(row.path("typicalUs"));
                    yield t.isPresent() ? t : number(row.path("avgUs"));
                }
                yield OptionalDouble.empty();
            }
        };
    }

    private static OptionalDouble number(JsonNode n) {
        return n.isNumber() ? OptionalDouble.of(n.asDouble()) : OptionalDouble.empty();
    }

    private static String failures(JsonNode root) {
        JsonNode f = root.path("result").path("failures");
        if (!f.isArray() || f.isEmpty()) return "";
        return ": " + f.get(0).toString();
    }

    private static boolean isRdma(PairTest t) {
        return t.kind() == dev.railyard.model.PairKind.RDMA_BANDWIDTH || t.kind() == dev.railyard.model.PairKind.RDMA_LATENCY;
    }

    /** The client ran before the server listened (perftest: "Couldn't connect to ..."). */
    private static boolean refused(StepResult c) {
        String text = (c.stdout() + c.stderr()).toLowerCase();
        return c.status() == StepStatus.EXITED && c.exitCode() != 0
                && (text.contains("couldn't connect") || text.contains("connection refused") || text.contains("unable to connect"));
    }

    /**
     * What a step said last: Railyard's own error line ("railyard: ...") where it printed one, not the hint or the
     * request for --debug under it; else the last line.
     */
    static String lastLine(String text, String fallback) {
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) return fallback;
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith("railyard: ")) return lines.get(i);
        }
        return lines.getLast();
    }

    private List<String> tcpServer(PairTest t, int port) {
        return NodeArgv.write(new NodeRequest.TcpServer(t.serverAddress(), port, false));
    }

    private List<String> tcpClient(PairTest t, int port) {
        Optional<String> bind = binding(t, t.client()).flatMap(ClusterSpec.Binding::address);
        boolean latency = t.kind() == dev.railyard.model.PairKind.TCP_LATENCY;
        return NodeArgv.write(new NodeRequest.TcpClient(t.serverAddress(), port, SERVER_START, bind,
                latency ? NodeRequest.TcpMode.LATENCY : NodeRequest.TcpMode.BANDWIDTH,
                latency ? settings.latencyDuration() : settings.tcpDuration(),
                latency ? OptionalInt.empty() : OptionalInt.of(settings.tcpStreams())));
    }

    private List<String> rdmaArgs(PairTest t, String side) {
        boolean server = side.equals("server");
        Optional<ClusterSpec.Binding> bound = binding(t, server ? t.server() : t.client());
        boolean bandwidth = t.kind() == dev.railyard.model.PairKind.RDMA_BANDWIDTH;
        var options = new NodeRequest.RdmaOptions(
                t.kind() == dev.railyard.model.PairKind.RDMA_LATENCY ? NodeRequest.RdmaTest.WRITE_LAT : NodeRequest.RdmaTest.WRITE_BW,
                settings.stepTimeout().toSeconds(),
                bandwidth ? OptionalLong.of(Math.max(1, settings.tcpDuration().toSeconds())) : OptionalLong.empty(),
                bound.map(ClusterSpec.Binding::netdev), bound.flatMap(ClusterSpec.Binding::rdma));
        return NodeArgv.write(server ? new NodeRequest.RdmaServer(options) : new NodeRequest.RdmaClient(t.serverAddress(), options));
    }

    private java.util.Optional<ClusterSpec.Binding> binding(PairTest t, String node) {
        return spec.network(t.network()).map(n -> n.bind().get(node));
    }

    private ClusterSpec.Node node(String name) {
        return spec.node(name).orElseThrow(() -> new IllegalArgumentException("no node " + name + " in the spec"));
    }
}
