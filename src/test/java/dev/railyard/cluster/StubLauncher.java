package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-written launcher that answers every railyard step with synthetic JSON shaped like the real commands' output:
 * inventories whose netdevs follow the spec's bindings, empty check results, and pair figures from {@link Figures}.
 * Nodes can be unreachable, steps can time out, and a step can block until released (to interrupt a run mid-way).
 */
final class StubLauncher implements Launcher {

    /** The figure a pair test gives: Gb/s for bandwidth, µs for latency. */
    interface Figures {
        double value(String network, String client, String server, String kind, int call);
    }

    private final ClusterSpec spec;
    private final Figures figures;
    private final Map<String, String> nodeByAddress = new ConcurrentHashMap<>();
    private final Map<String, String> networkByAddress = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    final Set<String> unreachable = ConcurrentHashMap.newKeySet();
    final Set<String> inventoryTimesOut = ConcurrentHashMap.newKeySet();
    /** Nodes whose inventory step ends INTERRUPTED at once, as when Ctrl-C reached the step before the JVM's hook ran. */
    final Set<String> inventoryStopped = ConcurrentHashMap.newKeySet();
    final AtomicInteger steps = new AtomicInteger();
    final AtomicInteger maxConcurrent = new AtomicInteger();
    private final AtomicInteger concurrent = new AtomicInteger();
    /** When set, the n-th pair client call blocks here until the run is interrupted. */
    volatile int blockAtClientCall = -1;
    final CountDownLatch blocked = new CountDownLatch(1);
    private final AtomicInteger clientCalls = new AtomicInteger();

    int clientCalls() {
        return clientCalls.get();
    }
    volatile boolean closed;
    /** Whether figures see the how-many-th call of their pair this is (a retest is call 2). */
    volatile boolean countCalls = true;

    StubLauncher(ClusterSpec spec, Figures figures) {
        this.spec = spec;
        this.figures = figures;
        for (ClusterSpec.Network n : spec.networks()) {
            n.bind().forEach((node, b) -> b.address().ifPresent(a -> {
                nodeByAddress.put(a, node);
                networkByAddress.put(a, n.name());
            }));
        }
    }

    @Override
    public String name() {
        return "stub";
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) {
        steps.incrementAndGet();
        if (unreachable.contains(node.name())) {
            return new StepResult(node.name(), List.of(), StepStatus.UNREACHABLE, -1, "", "", Duration.ZERO,
                    "ssh: connect to host " + node.address() + " port 22: Connection refused");
        }
        return ok(node.name(), List.of(), "");
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
        steps.incrementAndGet();
        int now = concurrent.incrementAndGet();
        maxConcurrent.accumulateAndGet(now, Math::max);
        try {
            return answer(node, args, timeout);
        } finally {
            concurrent.decrementAndGet();
        }
    }

    private StepResult answer(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
        // read as a node would: an argv outside the node protocol fails the test here
        NodeRequest request = NodeArgv.read(args);
        order.add(node.name() + " " + String.join(" ", args.subList(0, Math.min(3, args.size()))));
        if (request instanceof NodeRequest.Burn && burn != null) return burn.answer(node.name(), args);
        if (request instanceof NodeRequest.Inventory) {
            if (inventoryTimesOut.contains(node.name())) {
                return new StepResult(node.name(), args, StepStatus.TIMED_OUT, -1, "", "", timeout,
                        "killed with its process tree after the step timeout of " + timeout.toSeconds() + " s");
            }
            if (inventoryStopped.contains(node.name())) {
                return new StepResult(node.name(), args, StepStatus.INTERRUPTED, -1, "", "", Duration.ZERO,
                        "stopped: the run was interrupted as this step started");
            }
            int call = inventoryCalls.computeIfAbsent(node.name(), k -> new AtomicInteger()).incrementAndGet();
            return ok(node.name(), args, inventory(node.name(), call));
        }
        if (request instanceof NodeRequest.Check) {
            return ok(node.name(), args, "{\"schemaVersion\": 1, \"node\": \"" + node.name() + "\", \"findings\": ["
                    + "{\"id\": \"host.memlock\", \"severity\": \"PASS\", \"subject\": \"" + node.name()
                    + "\", \"observed\": \"unlimited\", \"expected\": \"unlimited\", \"remediation\": \"\"}]}");
        }
        if (request instanceof NodeRequest.TcpClient || request instanceof NodeRequest.RdmaClient) {
            int call = clientCalls.incrementAndGet();
            if (call == blockAtClientCall) {
                blocked.countDown();
                new CountDownLatch(1).await(); // until interrupted
            }
            String server = switch (request) {
                case NodeRequest.TcpClient c -> c.server();
                case NodeRequest.RdmaClient c -> c.server();
                default -> throw new AssertionError(request);
            };
            String network = networkByAddress.getOrDefault(server, "?");
            String serverNode = nodeByAddress.getOrDefault(server, "?");
            boolean rdma = request instanceof NodeRequest.RdmaClient;
            boolean latency = switch (request) {
                case NodeRequest.TcpClient c -> c.mode() == NodeRequest.TcpMode.LATENCY;
                case NodeRequest.RdmaClient c -> c.options().test() == NodeRequest.RdmaTest.WRITE_LAT;
                default -> false;
            };
            String kind = (rdma ? "rdma" : "tcp") + (latency ? "-lat" : "-bw");
            // counting calls per pair costs memory the simulation would charge to the coordinator: only when asked
            int n = countCalls ? calls.computeIfAbsent(network + " " + node.name() + " " + serverNode + " " + kind,
                    k -> new AtomicInteger()).incrementAndGet() : 1;
            double v = figures.value(network, node.name(), serverNode, kind, n);
            if (v < 0) {
                return new StepResult(node.name(), args, StepStatus.EXITED, 3, "", "railyard: cannot connect to " + server
                        + ": Connection refused", Duration.ofMillis(5), "");
            }
            String value = String.format(Locale.ROOT, "%.3f", v);
            String json = switch (kind) {
                case "tcp-bw" -> "{\"senderGbitsPerSecond\": " + value + ", \"receiver\": {\"gbitsPerSecond\": " + value + "}}";
                case "tcp-lat" -> "{\"oneWay\": {\"p50Micros\": " + value + "}}";
                case "rdma-bw" -> "{\"result\": {\"bandwidth\": [{\"bytes\": 65536, \"average\": " + value
                        + ", \"unit\": \"GBIT_PER_SEC\"}], \"latency\": [], \"failures\": []}, \"findings\": []}";
                default -> "{\"result\": {\"bandwidth\": [], \"latency\": [{\"bytes\": 2, \"typicalUs\": " + value
                        + ", \"avgUs\": " + value + "}], \"failures\": []}, \"findings\": []}";
            };
            return ok(node.name(), args, json);
        }
        return new StepResult(node.name(), args, StepStatus.EXITED, 3, "", "railyard: stub has no answer for " + args,
                Duration.ZERO, "");
    }

    /** The netdevs of the node's bindings, at the spec's MTU and address, plus one GPU-less NVML reading. */
    private String inventory(String node, int call) {
        StringBuilder nets = new StringBuilder();
        for (ClusterSpec.Network n : spec.networks()) {
            ClusterSpec.Binding b = n.bind().get(node);
            if (b == null) continue;
            if (!nets.isEmpty()) nets.append(", ");
            String prefix = n.subnet().map(s -> s.substring(s.indexOf('/'))).orElse("/24");
            nets.append("{\"name\": \"").append(b.netdev()).append("\", \"mtu\": ").append(n.mtu().orElse(1500))
                    .append(", \"operState\": \"up\", \"addresses\": [")
                    .append(b.address().map(a -> "\"" + a + prefix + "\"").orElse("")).append("]}");
        }
        String gpus = String.join(", ", java.util.Collections.nCopies(gpusPerNode, "{\"index\": 0}"));
        return "{\"hostname\": \"" + node + "\", \"gpu\": {\"nvml\": {\"absent\": \"stub: no NVML\"}, \"gpus\": [" + gpus + "]},"
                + " \"pciDevices\": [], \"rdmaDevices\": [{\"name\": \"mlx5_0\", \"firmwareVersion\": \"28.41.1000\", \"ports\": ["
                + ports.json(node, call) + "]}],"
                + " \"interfaces\": [" + nets + "]}";
    }

    /** The "ports" of mlx5_0 in a node's n-th inventory (validate's node stage takes the first): none unless set. */
    interface Ports {
        String json(String node, int call);
    }

    volatile Ports ports = (node, call) -> "";
    /** GPUs each node's inventory lists (NVML present then). */
    volatile int gpusPerNode;

    /** What 'railyard burn' answers on a node; without it the stub has no answer (exit 3). */
    interface Burn {
        StepResult answer(String node, List<String> args);
    }

    volatile Burn burn;
    /** Every step run, in order: "node first-three-args". */
    final List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    final Map<String, AtomicInteger> inventoryCalls = new ConcurrentHashMap<>();

    /** When set, started servers run until closed, as real ones do; starts and closes are counted. */
    volatile boolean serversStayAlive;
    final List<String> serverStarts = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    /** Whether starts are listed in {@link #serverStarts}: not at scale, where the list would be the harness's own heap. */
    volatile boolean listStarts = true;
    final AtomicInteger serversRunning = new AtomicInteger();

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) {
        steps.incrementAndGet();
        NodeArgv.read(args);
        if (listStarts) serverStarts.add(node.name() + " " + String.join(" ", args));
        if (serversStayAlive) {
            serversRunning.incrementAndGet();
            return new RemoteProcess() {
                private volatile boolean alive = true;
                @Override public boolean isAlive() { return alive; }
                @Override public StepResult await(Duration t) { close(); return ok(node.name(), args, ""); }
                @Override public void close() {
                    if (alive) serversRunning.decrementAndGet();
                    alive = false;
                }
            };
        }
        return new RemoteProcess() {
            @Override public boolean isAlive() { return false; }
            @Override public StepResult await(Duration t) { return ok(node.name(), args, ""); }
            @Override public void close() { }
        };
    }

    private static StepResult ok(String node, List<String> args, String stdout) {
        return new StepResult(node, args, StepStatus.EXITED, 0, stdout, "", Duration.ofMillis(1), "");
    }

    @Override
    public void close() {
        closed = true;
    }
}
