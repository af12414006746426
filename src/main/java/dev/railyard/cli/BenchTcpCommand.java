package dev.railyard.cli;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.railyard.bench.tcp.BandwidthClient;
import dev.railyard.bench.tcp.ClientSettings;
import dev.railyard.bench.tcp.LatencyClient;
import dev.railyard.bench.tcp.StopSignal;
import dev.railyard.bench.tcp.TcpBenchServer;
import dev.railyard.bench.tcp.TcpMode;
import dev.railyard.bench.tcp.TcpResultText;
import dev.railyard.bench.tcp.Units;
import dev.railyard.check.TcpBenchVerdict;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.RailyardException;
import dev.railyard.model.TcpResult;
import dev.railyard.platform.IoErrors;
import dev.railyard.report.Json;
import dev.railyard.report.VerdictText;
import dev.railyard.platform.NodeLock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

@Command(name = "tcp",
        mixinStandardHelpOptions = true,
        description = {"TCP bandwidth and ping-pong latency between two nodes, in the shape of iperf3 and sockperf.",
                "",
                "Start 'railyard bench tcp server' on one node and 'railyard bench tcp client ADDR' on the other."},
        subcommands = {BenchTcpCommand.Server.class, BenchTcpCommand.Client.class},
        footer = {"", "Examples:",
                "  railyard bench tcp server --bind 10.0.0.2",
                "  railyard bench tcp client 10.0.0.2 --streams 4 --duration 10s",
                "  railyard bench tcp client 10.0.0.2 --mode latency --msg-size 64 --format json"})
public final class BenchTcpCommand implements Runnable {

    static final int DEFAULT_PORT = 5201;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "server", mixinStandardHelpOptions = true,
            description = "Serve bandwidth and latency clients on one port (both modes) until stopped.")
    static final class Server implements Callable<Integer> {

        @Option(names = "--bind", paramLabel = "ADDR", description = "Listen on this address (default: all).")
        String bind;

        @Option(names = {"-p", "--port"}, defaultValue = "" + DEFAULT_PORT, description = "TCP port (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--once", description = "Exit after serving one client run (all of its streams).")
        boolean once;

        /** Accepted from validate; a server only answers its clients, which hold the node's lock. */
        @Mixin
        NodeLockOption nodeLock;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            checkPort(port);
            InetAddress address = bind == null ? null : resolve(bind, "--bind");
            PrintWriter err = spec.commandLine().getErr();
            InetSocketAddress at = address == null ? new InetSocketAddress(port) : new InetSocketAddress(address, port);
            try (TcpBenchServer server = TcpBenchServer.bind(at, line -> log(err, line))) {
                log(err, "listening on " + IoErrors.address(server.address()) + (once ? " for one client run" : ""));
                server.serve(once);
            } catch (java.net.BindException e) {
                String reason = IoErrors.describe(e);
                throw new RailyardException.Usage("cannot listen on " + IoErrors.address(at) + ": " + reason,
                        reason.contains("not on this host") ? "--bind one of this host's addresses (ip -br addr)"
                                : "pick another --port, or stop what listens there (ss -ltnp 'sport = :" + port + "')");
            }
            return ExitCodes.OK;
        }

        private static void log(PrintWriter err, String line) {
            synchronized (err) {
                err.println("railyard bench tcp server: " + line);
                err.flush();
            }
        }
    }

    @Command(name = "client", mixinStandardHelpOptions = true,
            description = {"Measure bandwidth (parallel streams, Gb/s per interval, sender and receiver totals) "
                    + "or ping-pong latency (min/avg/p50/p99/p99.9/max, one-way = RTT/2 like sockperf)."})
    static final class Client implements Callable<Integer> {

        @Parameters(index = "0", paramLabel = "ADDR", description = "The server's address or name.")
        String server;

        @Option(names = {"-p", "--port"}, defaultValue = "" + DEFAULT_PORT, description = "TCP port (default: ${DEFAULT-VALUE}).")
        int port;

        @Option(names = "--mode", defaultValue = "bandwidth", paramLabel = "bandwidth|latency",
                description = "What to measure (default: ${DEFAULT-VALUE}).")
        TcpMode mode;

        @Option(names = {"-P", "--streams"}, defaultValue = "1", description = "Parallel streams, bandwidth only (default: ${DEFAULT-VALUE}).")
        int streams;

        @Option(names = {"-t", "--duration"}, paramLabel = "TIME",
                description = "How long to run, e.g. 10s, 500ms (default: 10s; with --count, until the count).")
        String duration;

        @Option(names = {"-l", "--msg-size"}, paramLabel = "SIZE",
                description = "Bytes per write (bandwidth, default 128K) or per message (latency, default 64).")
        String msgSize;

        @Option(names = {"-i", "--interval"}, defaultValue = "1s", paramLabel = "TIME",
                description = "Progress interval (default: ${DEFAULT-VALUE}).")
        String interval;

        @Option(names = {"-n", "--count"}, paramLabel = "N", description = "Latency: stop after N measured round trips.")
        Long count;

        @Option(names = "--warmup", defaultValue = "400ms", paramLabel = "TIME",
                description = "Latency: round trips in this first part of the run are not counted (default: ${DEFAULT-VALUE}, as sockperf).")
        String warmup;

        @Option(names = {"-B", "--bind"}, paramLabel = "ADDR", description = "Connect from this local address.")
        String bind;

        @Option(names = "--interface", paramLabel = "IFNAME", description = "Connect from this interface's address.")
        String iface;

        @Mixin
        FormatOption output = new FormatOption();

        @Mixin
        SpecOption specOption = new SpecOption();

        @Option(names = "--expect-gbps", paramLabel = "Gb/s",
                description = "Bandwidth: pass at this many Gb/s or more (default: the spec's expect.tcp_gbps).")
        Double expectGbps;

        @Option(names = "--expect-latency-us", paramLabel = "US",
                description = "Latency: pass at this one-way average in µs or less (default: the spec's expect.tcp_latency_us).")
        Double expectLatencyUs;

        @Option(names = "--connect-timeout", defaultValue = "0s", paramLabel = "TIME",
                description = "Keep trying to connect this long while the server is not listening yet, e.g. 10s "
                        + "(default: ${DEFAULT-VALUE}, one try). validate uses it to start a pair right after its server.")
        String connectTimeout;

        @Spec
        CommandSpec spec;

        @Mixin
        NodeLockOption nodeLock;

        @Override
        public Integer call() throws IOException {
            // the arguments and the spec before the node's lock: a typo while another benchmark runs is a usage
            // error (2), not a busy node (3)
            ClientSettings settings = settings();
            Duration connect = parseDuration("--connect-timeout", connectTimeout);
            Optional<ClusterSpec.Expect> specExpect = specOption.load().map(ClusterSpec::expect);
            Optional<Double> floor = Optional.ofNullable(expectGbps).or(() -> specExpect.flatMap(ClusterSpec.Expect::tcpGbps));
            Optional<Double> ceiling = Optional.ofNullable(expectLatencyUs)
                    .or(() -> specExpect.flatMap(ClusterSpec.Expect::tcpLatencyUs));
            try (NodeLock held = nodeLock.acquire("bench tcp client")) {
                return measure(settings, connect, floor, ceiling);
            }
        }

        private Integer measure(ClientSettings settings, Duration connect, Optional<Double> floor,
                                Optional<Double> ceiling) throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            boolean text = output.text();
            StopSignal signal = new StopSignal();
            // Ctrl-C or SIGTERM: the run stops, prints what it measured and returns 1 (a run cut short,
            // docs/exit-codes.md), which Main exits with
            try (dev.railyard.platform.Cancellation.Registration onStop = Interrupts.onStop(signal::stop)) {
                return measure(settings, signal, out, err, text, floor, ceiling, connect);
            }
        }

        private int measure(ClientSettings settings, StopSignal signal, PrintWriter out, PrintWriter err, boolean text,
                            Optional<Double> floor, Optional<Double> ceiling, Duration connect) throws IOException {
            long connectBy = System.nanoTime() + connect.toNanos();
            try {
                TcpResult result = runConnecting(settings, signal, err, text, connectBy);
                List<Finding> findings = TcpBenchVerdict.judge(server + ":" + port, result, floor, ceiling);
                if (text) {
                    out.print(TcpResultText.render(result));
                    out.println();
                    out.print(VerdictText.render(findings));
                } else {
                    out.print(Json.write(new Report(result, findings)) + "\n");
                }
                out.flush();
                return result.stop().complete() ? ExitCodes.of(findings) : ExitCodes.FAIL_FINDING;
            } catch (java.net.BindException e) {
                throw usage("cannot connect from " + (bind != null ? bind : iface) + ": " + IoErrors.describe(e),
                        "--bind one of this host's addresses (ip -br addr), or leave it out");
            } catch (ConnectException e) {
                throw new RailyardException.MissingPrerequisite("cannot connect to " + IoErrors.address(settings.server())
                        + ": " + IoErrors.describe(e),
                        "start 'railyard bench tcp server' on " + server + " first (and open port " + port + ")");
            } catch (IOException e) {
                // any other failure of the network (no route to host, a reset, a timeout): the peer or the path to it
                // is the missing prerequisite, not a bug here
                throw new RailyardException.MissingPrerequisite("cannot measure against "
                        + IoErrors.address(settings.server()) + ": " + IoErrors.describe(e),
                        "check that " + server + " is up and routable from here (ping " + server + ", ip route get "
                                + server + ") and that 'railyard bench tcp server' runs there");
            }
        }

        /**
         * Runs the client; while the server refuses connections (not listening yet) and the connect deadline is not
         * reached, polls again every 50 ms. Nothing was measured by a refused run, so nothing is lost.
         */
        private TcpResult runConnecting(ClientSettings settings, StopSignal signal, PrintWriter err, boolean text,
                                        long connectBy) throws IOException {
            if (text) progress(err, TcpResultText.header(settings));
            while (true) {
                try {
                    return switch (mode) {
                        case BANDWIDTH -> new BandwidthClient(settings, signal,
                                iv -> { if (text) progress(err, TcpResultText.progress(iv)); }).run();
                        case LATENCY -> new LatencyClient(settings, signal,
                                iv -> { if (text) progress(err, TcpResultText.progress(iv)); }).run();
                    };
                } catch (ConnectException e) {
                    if (System.nanoTime() >= connectBy || signal.stopped()) throw e;
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
                }
            }
        }

        /** What --format json prints: the run's fields, then the findings on it. */
        record Report(@JsonUnwrapped TcpResult result, List<Finding> findings) {}

        private static void progress(PrintWriter err, String line) {
            err.println(line);
            err.flush();
        }

        ClientSettings settings() {
            checkPort(port);
            ExpectOption.requirePositive("--expect-gbps", expectGbps, "9.4");
            ExpectOption.requirePositive("--expect-latency-us", expectLatencyUs, "50");
            if (streams < 1 || streams > 128) throw usage("--streams must be between 1 and 128, got " + streams, "e.g. --streams 4");
            if (mode == TcpMode.LATENCY && streams != 1) throw usage("--streams is for --mode bandwidth", "latency uses one connection");
            if (bind != null && iface != null) throw usage("give --bind or --interface, not both", "--interface eth0 uses eth0's address");
            if (count != null && count < 1) throw usage("--count must be at least 1", "e.g. --count 100000");
            if (count != null && mode == TcpMode.BANDWIDTH) throw usage("--count is for --mode latency", "bandwidth runs for --duration");
            Duration runFor = duration != null ? parseDuration("--duration", duration)
                    : count != null ? Duration.ZERO : Duration.ofSeconds(10);
            if (duration != null && runFor.isZero()) throw usage("--duration must be positive", "e.g. --duration 10s");
            Duration every = parseDuration("--interval", interval);
            if (every.toMillis() < 10) throw usage("--interval must be at least 10ms", "e.g. --interval 1s");
            long size = msgSize != null ? parseSize(msgSize) : mode == TcpMode.LATENCY ? 64 : 128 << 10;
            if (size < 1 || size > 64 << 20) throw usage("--msg-size must be between 1 B and 64M, got " + msgSize, "e.g. --msg-size 128K");
            Optional<InetAddress> local = bind != null ? Optional.of(resolve(bind, "--bind"))
                    : iface != null ? Optional.of(interfaceAddress(iface)) : Optional.empty();
            return new ClientSettings(new InetSocketAddress(resolve(server, "ADDR"), port), local, mode, streams, runFor,
                    (int) size, every, count == null ? 0 : count, parseDuration("--warmup", warmup));
        }

        private static InetAddress interfaceAddress(String name) {
            try {
                NetworkInterface nic = NetworkInterface.getByName(name);
                if (nic == null) throw usage("no interface named '" + name + "'", "list them with: ip -br addr");
                return Collections.list(nic.getInetAddresses()).stream()
                        .sorted((a, b) -> Boolean.compare(b instanceof Inet4Address, a instanceof Inet4Address))
                        .filter(a -> !a.isLinkLocalAddress())
                        .findFirst()
                        .orElseThrow(() -> usage("interface " + name + " has no usable address", "ip addr add ADDR/PREFIX dev " + name));
            } catch (SocketException e) {
                throw usage("cannot read interface " + name + ": " + e.getMessage(), "list them with: ip -br addr");
            }
        }

        private static Duration parseDuration(String option, String value) {
            try {
                return Units.parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw usage(option + ": " + e.getMessage(), "e.g. " + option + " 10s");
            }
        }

        private static long parseSize(String value) {
            try {
                return ByteSizeConverter.parse(value);
            } catch (CommandLine.TypeConversionException e) {
                throw usage("--msg-size: " + e.getMessage(), "e.g. --msg-size 128K");
            }
        }
    }

    static void checkPort(int port) {
        if (port < 1 || port > 65535) throw usage("--port must be 1..65535, got " + port, "the default is " + DEFAULT_PORT);
    }

    static InetAddress resolve(String host, String what) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw usage(what + ": cannot resolve '" + host + "'", "give an IP address or a name this node resolves");
        }
    }

    private static RailyardException.Usage usage(String message, String hint) {
        return new RailyardException.Usage(message, hint);
    }
}
