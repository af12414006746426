package dev.railyard.cli;

import dev.railyard.report.VerdictText;
import dev.railyard.bench.perftest.PerftestPair;
import dev.railyard.model.PerftestResult;
import dev.railyard.bench.perftest.PerftestRunner;
import dev.railyard.bench.perftest.PortChoice;
import dev.railyard.check.PerftestPairVerdict;
import dev.railyard.check.SpecLoader;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NetInterface;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RailyardException;
import dev.railyard.model.RdmaPort;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.platform.Clock;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;
import dev.railyard.report.Json;
import dev.railyard.spec.SpecReader;
import dev.railyard.platform.NodeLock;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

@Command(name = "rdma",
        mixinStandardHelpOptions = true,
        description = {
                "RDMA bandwidth or latency with perftest, flags chosen from the inventory.",
                "",
                "RDMA bandwidth or latency between two nodes with perftest (ib_write_bw, ib_write_lat, ib_read_bw, "
                        + "ib_send_bw), with --ib-dev, --ib-port and --gid-index chosen from this node's inventory: the ACTIVE "
                        + "port whose netdev is on ADDR's subnet (or the only ACTIVE port), and on RoCE the RoCE v2 GID of the "
                        + "netdev's IPv4 address. Pinned to the HCA's NUMA node with numactl when both are known.",
                "",
                "Start the server on one node, then the client on the other with the server's fabric address. "
                        + "It prints the perftest command it runs, streams perftest's output, and judges the result: "
                        + "bandwidth passes at 90%% of the link rate (the port's rate, or the spec's rate_gbps), latency at "
                        + "the spec's expect.rdma_latency_us."},
        footer = {"", "Exit codes: 0 ok, 1 a FAIL (perftest failed or too slow), 2 usage, 3 perftest/RDMA missing.",
                "", "Examples:",
                "  railyard bench rdma server",
                "  railyard bench rdma client 10.0.0.2",
                "  railyard bench rdma client 10.0.0.2 --test write_lat",
                "  railyard bench rdma client 10.0.0.2 --spec cluster.yaml --network rail0"})
public final class BenchRdmaCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "server|client", description = "This node's side of the pair.")
    PerftestPair.Side side;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ADDR",
            description = "client: the server's fabric address. server: optional, the client's (picks the port).")
    String address;

    @Option(names = "--test", defaultValue = "write_bw", paramLabel = "write_bw|write_lat|read_bw|send_bw",
            description = "perftest test (default: ${DEFAULT-VALUE}).")
    PerftestPair.Test test;

    @Option(names = "--ib-dev", paramLabel = "DEV", description = "RDMA device (default: from the inventory).")
    String ibDev;

    @Option(names = "--ib-port", paramLabel = "N", description = "Port of the device (default: from the inventory).")
    Integer ibPort;

    @Option(names = "--gid-index", paramLabel = "N", description = "RoCE GID index (default: the RoCE v2 IPv4 GID).")
    Integer gidIndex;

    @Option(names = "--netdev", paramLabel = "IFNAME", description = "Use the RDMA port of this interface.")
    String netdev;

    @Option(names = "--bidirectional", description = "Both directions at once (perftest -b; both sides need it).")
    boolean bidirectional;

    @Option(names = "--report-gbits", description = "Bandwidth in Gb/s instead of MB/s (--report_gbits).")
    boolean reportGbits;

    @Option(names = "--size", paramLabel = "BYTES", converter = ByteSizeConverter.class,
            description = "Message size (perftest -s; both sides must match).")
    Long size;

    @Option(names = "--duration", paramLabel = "S", description = "Run for S seconds (perftest -D).")
    Integer duration;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "300",
            description = "Give up after S seconds, e.g. when no client connects (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--no-numa", description = "Do not pin to the HCA's NUMA node.")
    boolean noNuma;

    @Option(names = "--perftest-dir", paramLabel = "DIR", description = "Where the perftest binaries are (default: PATH).")
    Path perftestDir;

    @Mixin
    SpecOption specOption = new SpecOption();

    @Option(names = "--network", paramLabel = "NAME", description = "The spec network to test (needs --spec).")
    String network;

    @Option(names = "--node", paramLabel = "NAME", description = "This node's name in the spec (default: hostname).")
    String node;

    @Mixin
    FormatOption output = new FormatOption();

    @Spec
    CommandSpec spec;

    private final Supplier<NodeInventory> inventory;
    private final Function<Consumer<String>, CommandRunner> runners;
    private final Predicate<String> onPath;
    private final SpecLoader specLoader;

    public BenchRdmaCommand() {
        this(() -> new InventoryCollector(GpuCollector.withNvml(
                        () -> new NvmlLoad.Unavailable("not read for an RDMA benchmark")), Clock.system())
                        .collect(HostRoot.live()),
                CommandRunner::echoing, BenchRdmaCommand::onSystemPath, file -> new SpecReader().read(file));
    }

    BenchRdmaCommand(Supplier<NodeInventory> inventory, Function<Consumer<String>, CommandRunner> runners,
                     Predicate<String> onPath, SpecLoader specLoader) {
        this.inventory = inventory;
        this.runners = runners;
        this.onPath = onPath;
        this.specLoader = specLoader;
    }

    /** What --format json prints: the command that ran, the port chosen and why, perftest's parsed output, verdict. */
    record Report(String side, String test, String commandLine, List<String> argv, String port,
                  Optional<String> netdev, OptionalInt gidIndex, OptionalInt numaNode, String choice,
                  Optional<Double> linkGbps, int exitCode, boolean timedOut, PerftestResult result,
                  List<Finding> findings) {}

    @Mixin
    NodeLockOption nodeLock;

    @Override
    public Integer call() {
        // every argument is judged before the machine is probed: a typo is a usage error (2), not "no RDMA device" (3)
        if (duration != null && duration < 1) {
            throw new RailyardException.Usage("--duration must be at least 1 second, got " + duration, "e.g. --duration 10");
        }
        if (timeoutSeconds < 1) {
            throw new RailyardException.Usage("--timeout must be at least 1 second, got " + timeoutSeconds, "e.g. --timeout 300");
        }
        if (size != null && size < 1) throw new RailyardException.Usage("--size must be at least 1 byte", "e.g. --size 64K");
        if (ibPort != null && ibPort < 1) {
            throw new RailyardException.Usage("--ib-port " + ibPort + ": a device's ports count from 1", "e.g. --ib-port 1");
        }
        if (gidIndex != null && gidIndex < 0) {
            throw new RailyardException.Usage("--gid-index " + gidIndex + " is negative", "GID indexes count from 0; see railyard inventory");
        }
        if (side == PerftestPair.Side.CLIENT && address == null) {
            throw new RailyardException.Usage("the client needs the server's address",
                    "railyard bench rdma client 10.0.0.2 (the server's address on the RDMA network)");
        }
        if (network != null && !specOption.given()) {
            throw new RailyardException.Usage("--network needs --spec", "railyard bench rdma ... --spec cluster.yaml --network rail0");
        }
        Optional<ClusterSpec> cluster = specOption.load(specLoader);
        Optional<ClusterSpec.Network> net = cluster.flatMap(this::network);
        NodeInventory inv = inventory.get();
        Optional<ClusterSpec.Binding> bind = net.flatMap(n -> Optional.ofNullable(
                n.bind().get(node != null ? node : cluster.flatMap(c -> c.nodeForHost(inv.hostname()))
                        .map(ClusterSpec.Node::name).orElse(inv.hostname()))));
        PortChoice.Request req = new PortChoice.Request(
                Optional.ofNullable(ibDev).or(() -> bind.flatMap(b -> b.rdma().map(NetInterface.RdmaPortRef::device))),
                ibPort != null ? OptionalInt.of(ibPort)
                        : bind.flatMap(b -> b.rdma().map(r -> OptionalInt.of(r.port()))).orElse(OptionalInt.empty()),
                gidIndex != null ? OptionalInt.of(gidIndex) : OptionalInt.empty(),
                Optional.ofNullable(netdev).or(() -> bind.map(ClusterSpec.Binding::netdev)),
                Optional.ofNullable(address));
        PortChoice choice = PortChoice.choose(inv, req);
        boolean pin = !noNuma && choice.numaNode().isPresent() && onPath.test("numactl");
        PerftestPair pair = new PerftestPair(test, side, choice, Optional.ofNullable(address), bidirectional,
                reportGbits, size != null ? OptionalLong.of(size) : OptionalLong.empty(),
                duration != null ? OptionalInt.of(duration) : OptionalInt.empty(), pin);
        Optional<Double> rate = net.flatMap(ClusterSpec.Network::rateGbps).or(() -> choice.port().rate().optional()
                .map(RdmaPort.LinkRate::gbps).filter(g -> g > 0));
        ClusterSpec.Expect expect = cluster.map(ClusterSpec::expect).orElse(ClusterSpec.Expect.defaults());

        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progress = output.json() ? spec.commandLine().getErr() : out;
        PerftestRunner runner = new PerftestRunner(runners.apply(line -> {
            progress.println(line);
            progress.flush();
        }), Optional.ofNullable(perftestDir));
        PerftestRunner.Plan plan = pair.plan(Duration.ofSeconds(timeoutSeconds));
        List<String> argv = runner.argv(plan);
        PerftestRunner.Run run;
        // the node's lock last, after every argument and the port choice: a typo while another benchmark runs is a
        // usage error (2), not a busy node (3). The client measures; the server only answers it, as a loopback
        // pair's server does beside its client
        try (NodeLock held = side == PerftestPair.Side.CLIENT ? nodeLock.acquire("bench rdma client") : null) {
            preamble(progress, pair, argv, rate, pin);
            run = runner.run(plan);
        }
        Finding verdict = new PerftestPairVerdict(rate, expect.rdmaBwEfficiency(), expect.rdmaLatencyUs()).judge(pair, run);
        List<Finding> findings = List.of(verdict);
        if (output.json()) {
            out.println(Json.write(new Report(side.name().toLowerCase(), test.flag(), VerdictText.shellLine(argv), argv,
                    choice.port().ref(), choice.netdev().map(NetInterface::name), choice.gidIndex(),
                    pin ? choice.numaNode() : OptionalInt.empty(), choice.reason(), rate, run.exitCode(),
                    run.timedOut(), run.result(), findings)));
        } else {
            out.println();
            out.print(VerdictText.render(findings));
        }
        out.flush();
        return ExitCodes.of(findings);
    }

    private void preamble(PrintWriter w, PerftestPair pair, List<String> argv, Optional<Double> rate, boolean pin) {
        PortChoice c = pair.choice();
        w.println("Port:    " + c.port().ref() + c.netdev().map(n -> " (" + n.name()
                + c.ipv4Address().map(a -> " " + a).orElse("") + ")").orElse("") + ", " + c.reason()
                + c.gidIndex().stream().mapToObj(g -> "; GID index " + g).findFirst().orElse("")
                + (pin ? "; NUMA node " + c.numaNode().getAsInt() : c.numaNode().isPresent()
                ? "; NUMA node " + c.numaNode().getAsInt() + " (not pinned: " + (noNuma ? "--no-numa" : "no numactl") + ")" : ""));
        w.println("Rate:    " + rate.map(r -> r + " Gb/s").orElse("unknown"));
        w.println("Command: " + VerdictText.shellLine(argv));
        w.println("Peer:    " + pair.peerHint());
        w.println();
        w.flush();
    }

    private Optional<ClusterSpec.Network> network(ClusterSpec c) {
        if (network == null) return Optional.empty();
        return Optional.of(c.network(network).orElseThrow(() -> new RailyardException.Usage(
                "no network " + network + " in " + c.source(),
                "networks: " + c.networks().stream().map(ClusterSpec.Network::name).toList())));
    }

    static boolean onSystemPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
        }
        return false;
    }
}
