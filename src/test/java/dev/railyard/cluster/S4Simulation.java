package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NetInterface;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * validate of the S4 cluster (8 nodes x 8 H100, one InfiniBand HDR 200G rail per GPU) by simulation: the real
 * {@link ClusterValidation} scheduler over a launcher whose every step takes the time it was measured to take,
 * {@link StepTimes}, on a clock that runs {@link #SCALE} times faster than the machine's. Each step sleeps its
 * time / SCALE; the clock handed to validate reads SCALE x the time passed, so the report's times and the printed
 * schedule are the cluster's. The coordinator's own work (and this machine's scheduling delays) are scaled up too,
 * which makes the total an upper bound; a warm-up run first keeps the JVM's start-up out of it.
 * Run by scripts/validate-s4-sim.sh.
 */
public final class S4Simulation {

    /**
     * Simulated seconds per real second: 20 minutes in 60 s. The coordinator's own work is scaled up with the steps,
     * so it stays low; a run with every step at zero shows what that work adds.
     */
    static final long SCALE = 20;

    /**
     * What each step takes on S4, in seconds, from measurements (docs/benchmarks.md, "validate of S4 by
     * simulation", says where each comes from).
     */
    record StepTimes(double prepare, double inventory, double check, double jvm, double rdmaSetup, double rdmaLatency,
                     double gpuQuick, double gpuFull, double storage, double ncclStart, double ncclQuick,
                     double ncclFull) {}

    static final StepTimes MEASURED = new StepTimes(
            0.70,  // prepare: one ssh round trip with the cache probe (a JVM-less command)
            2.00,  // railyard inventory --format json on the captured H100 tree (gpud's), JVM start included
            4.20,  // railyard check --format json --spec s4 on the same tree
            0.70,  // a railyard JVM started for one pair end (railyard --version)
            0.50,  // perftest's connection setup before its timed traffic: not measured (no RDMA here)
            0.01,  // ib_write_lat's 1,000 iterations at ~1 us
            0.70,  // bench gpu quick: 64 MiB x 5 per copy kind at the H200 figures, CUDA start-up included
            3.60,  // bench gpu: 256 MiB x 20 per copy kind, 56 peer pairs
            22.0,  // bench storage: write then read, each at most --runtime 10 s, plus start-up
            13.3,  // NCCL start: the 2-GPU start-up parts, ncclCommInit scaled linearly from 2 to 64 ranks
            1.70,  // the all_reduce sweep 8 B..128 MiB over 64 ranks at 23 GB/s busbw (HDR)
            13.8); // the all_reduce sweep 8 B..1 GiB

    /** The S4 spec: 8 nodes, a management network, {@code rails} HDR rails each on its own HCA. */
    static ClusterSpec spec(int rails) {
        List<String> names = IntStream.rangeClosed(1, 8).mapToObj(i -> String.format("compute%02d", i)).toList();
        List<ClusterSpec.Node> nodes = IntStream.range(0, 8).mapToObj(i -> new ClusterSpec.Node(names.get(i),
                "10.0.1." + (11 + i), Optional.empty(), Optional.empty())).toList();
        Map<String, ClusterSpec.Binding> mgmt = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            mgmt.put(names.get(i), new ClusterSpec.Binding("eth0", Optional.empty(), Optional.of(nodes.get(i).address())));
        }
        List<ClusterSpec.Network> nets = new ArrayList<>();
        nets.add(new ClusterSpec.Network("mgmt", ClusterSpec.Role.MANAGEMENT, Optional.of(ClusterSpec.LinkLayer.ETHERNET),
                Optional.of(1.0), Optional.empty(), Optional.of("10.0.1.0/24"), Optional.empty(), mgmt));
        for (int r = 0; r < rails; r++) {
            Map<String, ClusterSpec.Binding> bind = new LinkedHashMap<>();
            for (int i = 0; i < 8; i++) {
                bind.put(names.get(i), new ClusterSpec.Binding("ib" + r,
                        Optional.of(new NetInterface.RdmaPortRef("mlx5_" + r, 1)), Optional.of("10.1." + r + "." + (11 + i))));
            }
            nets.add(new ClusterSpec.Network("ib" + r, ClusterSpec.Role.COMPUTE, Optional.of(ClusterSpec.LinkLayer.INFINIBAND),
                    Optional.of(200.0), Optional.empty(), Optional.of("10.1." + r + ".0/24"), Optional.empty(), bind));
        }
        return new ClusterSpec("ml-training-cluster", "test", nodes, Optional.empty(), nets, ClusterSpec.Expect.defaults());
    }

    /** A clock {@code scale} times faster than the machine's, from {@code start}. */
    static Clock scaled(Instant start, long scale) {
        long base = System.nanoTime();
        return new Clock() {
            @Override public Instant now() { return start.plusNanos(nanoTime()); }
            @Override public long nanoTime() { return (System.nanoTime() - base) * scale; }
        };
    }

    /** The launcher: the stub's answers, each after its step's time. */
    static final class TimedLauncher implements Launcher {
        private final StubLauncher stub;
        private final StepTimes t;
        private final boolean full;
        private final long scale;

        TimedLauncher(StubLauncher stub, StepTimes t, boolean full, long scale) {
            this.stub = stub;
            this.t = t;
            this.full = full;
            this.scale = scale;
        }

        private void take(double seconds) throws InterruptedException {
            Thread.sleep(Duration.ofNanos((long) (seconds * 1e9 / scale)));
        }

        @Override public String name() { return "simulated"; }

        @Override
        public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
            take(t.prepare());
            return stub.prepare(node, timeout);
        }

        @Override
        public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) throws InterruptedException {
            take(switch (NodeArgv.read(args)) {
                case NodeRequest.Inventory i -> t.inventory();
                case NodeRequest.Check c -> t.check();
                case NodeRequest.TcpClient c -> t.jvm() + c.duration().toMillis() / 1e3;
                case NodeRequest.RdmaClient c -> t.jvm() + t.rdmaSetup() + (c.options().test() == NodeRequest.RdmaTest.WRITE_BW
                        ? c.options().durationSeconds().orElse(5) : t.rdmaLatency());
                case NodeRequest.GpuCopy g -> full ? t.gpuFull() : t.gpuQuick();
                case NodeRequest.Storage s -> t.storage();
                default -> t.jvm();
            });
            return stub.run(node, args, timeout);
        }

        @Override
        public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) {
            if (!(NodeArgv.read(args) instanceof NodeRequest.NcclRank)) return stub.start(node, args, timeout);
            // every rank ends when the collective does: the start, then the sweep
            long end = System.nanoTime() + (long) ((t.ncclStart() + (full ? t.ncclFull() : t.ncclQuick())) * 1e9 / scale);
            return new RemoteProcess() {
                @Override public boolean isAlive() { return System.nanoTime() < end; }
                @Override public StepResult await(Duration d) throws InterruptedException {
                    long left = end - System.nanoTime();
                    if (left > 0) Thread.sleep(Duration.ofNanos(left));
                    return new StepResult(node.name(), args, StepStatus.EXITED, 3, "", "railyard: simulated rank",
                            Duration.ZERO, "");
                }
                @Override public void close() { }
            };
        }

        @Override public void close() { stub.close(); }
    }

    /** One simulated validate; prints its schedule and returns the simulated seconds it took. */
    static double run(int rails, boolean full, StepTimes times, long scale, java.io.PrintStream out)
            throws InterruptedException {
        ClusterSpec spec = spec(rails);
        StubLauncher stub = new StubLauncher(spec, (net, client, server, kind, call) -> switch (kind) {
            case "rdma-bw" -> 190.0;
            case "rdma-lat" -> 1.1;
            case "tcp-lat" -> 12.0;
            default -> 40.0;
        });
        stub.gpusPerNode = 8;
        stub.countCalls = false;
        stub.listStarts = false;
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        Clock clock = scaled(t0, scale);
        List<String> schedule = java.util.Collections.synchronizedList(new ArrayList<>());
        Progress timing = new Progress(clock) {
            @Override public void note(String line) { }
            @Override public void finish() { }
            @Override protected void redraw(String event) { }
            @Override public void phase(String text) {
                schedule.add(String.format(Locale.ROOT, "%7.1f s  %s", clock.nanoTime() / 1e9, text));
            }
        };
        ValidationReport r = new ClusterValidation(spec, Optional.empty(), new TimedLauncher(stub, times, full, scale),
                ValidateSettings.of(full, 64, Duration.ofMinutes(10)), RunRecorder.none(), timing, clock, "s4-sim")
                .run(List.of("railyard", "validate", full ? "--full" : "--quick"));
        double total = clock.nanoTime() / 1e9;
        out.printf(Locale.ROOT, "# S4: 8 nodes x 8 GPUs, %d HDR rail%s, validate %s (clock x%d)%n", rails,
                rails == 1 ? "" : "s", full ? "--full" : "--quick", scale);
        schedule.forEach(out::println);
        out.printf(Locale.ROOT, "%7.1f s  done: %d pair tests in %d rounds, %d nodes%n", total, r.pairs().size(),
                r.rounds(), r.nodes().size());
        out.printf(Locale.ROOT, "total %.1f s = %.1f min%n", total, total / 60);
        return total;
    }

    public static void main(String[] args) throws Exception {
        int rails = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        java.io.PrintStream none = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        run(rails, true, MEASURED, 2000, none); // warm-up: class loading and compilation, not timed
        StepTimes zero = new StepTimes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        double quickAlone = run(rails, false, zero, SCALE, none);
        double fullAlone = run(rails, true, zero, SCALE, none);
        run(rails, false, MEASURED, SCALE, System.out);
        run(rails, true, MEASURED, SCALE, System.out);
        System.out.printf(Locale.ROOT, "the coordinator alone (every step at zero, same clock): --quick %.1f s, --full %.1f s%n",
                quickAlone, fullAlone);
    }
}
