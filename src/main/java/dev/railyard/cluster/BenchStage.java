package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.NcclBusbwRule;
import dev.railyard.check.NcclSweepVerdict;
import dev.railyard.check.ShellWord;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The benchmarks beyond pairs: a loopback TCP sanity test on a one-node cluster, GPU copy bandwidth per node with
 * GPUs, NCCL all_reduce across every GPU of the cluster, and (with --full) storage per node. Nodes without an NVIDIA
 * GPU or driver get INFO/UNKNOWN findings saying so, never a PASS and never a crash.
 */
final class BenchStage {

    static final String LOOPBACK = "bench.tcp.loopback";
    static final String GPU = "bench.gpu";
    static final int RENDEZVOUS_PORT = 29500;

    private final Launcher launcher;
    private final ClusterSpec spec;
    private final ValidateSettings settings;
    private final StepSlots slots;
    private final Progress progress;
    /** The validate command as the user typed it, for a fix that runs it again with other options. */
    private final List<String> commandLine;

    BenchStage(Launcher launcher, ClusterSpec spec, ValidateSettings settings, StepSlots slots, Progress progress,
               List<String> commandLine) {
        this.launcher = launcher;
        this.spec = spec;
        this.settings = settings;
        this.slots = slots;
        this.progress = progress;
        this.commandLine = List.copyOf(commandLine);
    }

    /** What the stage adds to the report; filled as it goes so an interrupted run keeps what was measured. */
    record Output(List<Finding> findings, List<SizeCurve> curves, List<Measurement> measurements) {
        Output() {
            this(java.util.Collections.synchronizedList(new ArrayList<>()), java.util.Collections.synchronizedList(new ArrayList<>()),
                    java.util.Collections.synchronizedList(new ArrayList<>()));
        }
    }

    static int steps(List<NodeStage.NodeResult> nodes, boolean full) {
        long done = nodes.stream().filter(NodeStage.NodeResult::completed).count();
        int gpuNodes = (int) nodes.stream().filter(n -> n.completed() && n.gpuCount() > 0).count();
        return (done == 1 ? 1 : 0) + gpuNodes + (gpuNodes > 0 ? 1 : 0) + (full ? (int) done : 0);
    }

    void run(List<NodeStage.NodeResult> nodes, Output out) throws InterruptedException {
        List<NodeStage.NodeResult> done = nodes.stream().filter(NodeStage.NodeResult::completed).toList();
        if (done.size() == 1) loopback(node(done.getFirst()), out);
        for (NodeStage.NodeResult n : done) {
            if (n.gpuCount() > 0) {
                progress.phase("bench gpu on " + n.outcome().node());
                List<String> args = NodeArgv.write(settings.full() ? new NodeRequest.GpuCopy(Optional.empty(), OptionalInt.empty())
                        : new NodeRequest.GpuCopy(Optional.of("64M"), OptionalInt.of(5)));
                StepResult r = step(node(n), args);
                progress.stepDone(n.outcome().node() + ": bench gpu");
                out.findings().addAll(stepFindings(n.outcome().node(), "bench gpu", GPU, r));
                out.measurements().addAll(BenchNumbers.gpu(n.outcome().node(), r));
            } else {
                out.findings().add(noGpu(n, GPU, "GPU copy benchmark"));
            }
        }
        nccl(done, out);
        if (settings.full()) {
            for (NodeStage.NodeResult n : done) {
                progress.phase("bench storage on " + n.outcome().node());
                StepResult r = step(node(n), NodeArgv.write(new NodeRequest.Storage(spec.expect().storageSeqMBps())));
                progress.stepDone(n.outcome().node() + ": bench storage");
                out.findings().addAll(stepFindings(n.outcome().node(), "bench storage", CheckId.BENCH_STORAGE_SEQ.id(), r));
                out.measurements().addAll(BenchNumbers.storage(n.outcome().node(), r));
            }
        }
    }

    private void loopback(ClusterSpec.Node node, Output out) throws InterruptedException {
        progress.phase("loopback TCP on " + node.name());
        int port = freePort();
        List<String> server = NodeArgv.write(new NodeRequest.TcpServer("127.0.0.1", port, true));
        List<String> client = NodeArgv.write(new NodeRequest.TcpClient("127.0.0.1", port, PairRunner.SERVER_START,
                Optional.empty(), NodeRequest.TcpMode.BANDWIDTH, Duration.ofSeconds(1), OptionalInt.empty()));
        StepResult c;
        StepResult s;
        try (StepSlots.Held h = slots.acquire(2); RemoteProcess srv = launcher.start(node, server, settings.stepTimeout())) {
            c = launcher.run(node, client, settings.stepTimeout());
            s = srv.await(Duration.ofSeconds(5));
        }
        progress.stepDone(node.name() + ": loopback TCP");
        var test = new dev.railyard.model.PairTest("loopback", node.name() + "-client", node.name(), "127.0.0.1",
                dev.railyard.model.PairKind.TCP_BANDWIDTH);
        String subject = node.name() + " 127.0.0.1";
        switch (PairRunner.outcome(test, c, s)) {
            case dev.railyard.model.PairOutcome.Measured(double gbps) -> {
                out.findings().add(Finding.pass(LOOPBACK, subject,
                        String.format(Locale.ROOT, "%.1f Gb/s in 1 s over loopback", gbps),
                        "a working TCP benchmark path (this proves railyard and the host stack, not a fabric)"));
                out.measurements().add(new Measurement(BenchNumbers.LOOPBACK_TCP, subject, gbps, "Gb/s"));
            }
            case dev.railyard.model.PairOutcome.NotRun(String why) -> out.findings().add(Finding.of(LOOPBACK,
                    Severity.UNKNOWN, subject, "not run: " + why, "a TCP benchmark over loopback", ""));
            case dev.railyard.model.PairOutcome.Failed(String why) -> out.findings().add(Finding.of(LOOPBACK, Severity.WARN,
                    subject, "no result: " + why, "a TCP benchmark over loopback", Fix.lines(
                            Fix.note("on " + node.name() + ", the same test with its errors on the terminal:"),
                            "railyard bench tcp server --once --bind 127.0.0.1 & railyard bench tcp client 127.0.0.1 "
                                    + "--connect-timeout 10s; wait")));
        }
    }

    void nccl(List<NodeStage.NodeResult> done, Output out) throws InterruptedException {
        List<NodeStage.NodeResult> withGpus = done.stream().filter(n -> n.gpuCount() > 0).toList();
        if (withGpus.isEmpty()) {
            NodeStage.NodeResult any = done.isEmpty() ? null : done.getFirst();
            out.findings().add(any == null ? NcclBusbwRule.unread("no node completed its checks",
                    "all_reduce across all GPUs", "").on(spec.cluster())
                    : noGpu(any, CheckId.BENCH_NCCL_BUSBW.id(), "NCCL all_reduce"));
            return;
        }
        String maxBytes = settings.full() ? "1G" : "128M";
        int ranks = withGpus.stream().mapToInt(NodeStage.NodeResult::gpuCount).sum();
        String subject = "all_reduce over " + ranks + " GPUs on " + withGpus.size() + " node" + (withGpus.size() == 1 ? "" : "s");
        progress.phase("NCCL " + subject);
        StepResult rank0;
        if (ranks == 1) {
            NodeStage.NodeResult n = withGpus.getFirst();
            rank0 = step(node(n), NodeArgv.write(new NodeRequest.NcclLocal(maxBytes, n.gpuCount())));
        } else {
            if (ranks > slots.max()) {
                progress.stepDone("NCCL skipped");
                out.findings().add(NcclBusbwRule.unread("needs " + ranks + " ranks at once, --max-parallel is "
                        + slots.max(), "all_reduce across all GPUs", Fix.lines(
                                Fix.note("NCCL starts all " + ranks + " ranks at once; validate again with room for them:"),
                                validateAgain(ranks))).on(subject));
                return;
            }
            rank0 = ranks(withGpus, ranks, maxBytes);
        }
        progress.stepDone("NCCL all_reduce");
        if (!rank0.completed()) {
            out.findings().add(NcclBusbwRule.noResult("no result: " + describe(rank0), "all_reduce across all GPUs",
                    ncclByHand(withGpus, ranks, maxBytes)).on(subject));
            return;
        }
        Reading<JsonNode> json = StepJson.parse(rank0.stdout());
        if (!(json instanceof Reading.Present<JsonNode>(JsonNode r))) {
            out.findings().add(NcclBusbwRule.unread(json.describe(), "NCCL's table", "").on(subject));
            return;
        }
        List<SizeCurve.Point> points = new ArrayList<>();
        long wrong = 0;
        for (JsonNode size : r.path("sizes")) {
            JsonNode t = size.path("outOfPlace");
            points.add(new SizeCurve.Point(size.path("bytes").asLong(), t.path("busbwGBps").asDouble()));
            wrong += Math.max(0, t.path("wrong").asLong()) + Math.max(0, size.path("inPlace").path("wrong").asLong());
        }
        SizeCurve curve = new SizeCurve(BenchNumbers.NCCL_BUSBW, subject, "GB/s", points);
        out.curves().add(curve);
        out.measurements().addAll(BenchNumbers.nccl(curve));
        SizeCurve.Point last = points.isEmpty() ? new SizeCurve.Point(0, 0) : points.getLast();
        out.findings().addAll(NcclSweepVerdict.judge(subject, r.path("nranks").asInt(ranks), last.bytes(), last.value(), wrong,
                r.path("complete").asBoolean(false) && !points.isEmpty(), spec.expect().ncclBusbwGBps(),
                withGpus.size() == 1 ? NcclBusbwRule.Span.ONE_NODE : NcclBusbwRule.Span.NODES));
    }

    /**
     * One rank per GPU on every node (one node with several GPUs too: one process per GPU, like mpirun -np N),
     * started through the launcher, meeting at the first node's rendezvous.
     */
    private StepResult ranks(List<NodeStage.NodeResult> withGpus, int ranks, String maxBytes) throws InterruptedException {
        String rendezvous = rendezvousHost(withGpus) + ":" + RENDEZVOUS_PORT;
        List<RemoteProcess> started = new ArrayList<>();
        try (StepSlots.Held h = slots.acquire(ranks)) {
            int rank = 0;
            for (NodeStage.NodeResult n : withGpus) {
                for (int d = 0; d < n.gpuCount(); d++, rank++) {
                    started.add(launcher.start(node(n), NodeArgv.write(new NodeRequest.NcclRank(maxBytes, rank, ranks, d,
                            rendezvous)), settings.stepTimeout()));
                }
            }
            StepResult zero = started.getFirst().await(settings.stepTimeout());
            for (RemoteProcess p : started.subList(1, started.size())) p.await(Duration.ofSeconds(30));
            return zero;
        } finally {
            started.forEach(RemoteProcess::close);
        }
    }

    /**
     * Where rank 0 listens, as the other ranks' nodes reach it: the first node's address on a management network
     * (then a compute network) that binds every node of the run, else the node's spec address. The spec address is
     * ssh's, and it may be an ssh_config alias that only this machine resolves; a bound address is one the nodes share.
     */
    private String rendezvousHost(List<NodeStage.NodeResult> nodes) {
        List<String> names = nodes.stream().map(n -> n.outcome().node()).toList();
        for (ClusterSpec.Role role : List.of(ClusterSpec.Role.MANAGEMENT, ClusterSpec.Role.COMPUTE)) {
            for (ClusterSpec.Network net : spec.networks()) {
                if (net.role() != role || !names.stream().allMatch(n -> net.bind().containsKey(n)
                        && net.bind().get(n).address().isPresent())) continue;
                String address = net.bind().get(names.getFirst()).address().orElseThrow();
                int slash = address.indexOf('/');
                return slash < 0 ? address : address.substring(0, slash);
            }
        }
        return node(nodes.getFirst()).address();
    }

    private Finding noGpu(NodeStage.NodeResult n, String id, String what) {
        JsonNode inv = n.inventory().orElseThrow();
        long onPci = 0;
        for (JsonNode d : inv.path("pciDevices")) if (d.path("nvidiaGpu").asBoolean(false)) onPci++;
        Reading<JsonNode> nvml = StepJson.reading(inv.path("gpu").path("nvml"), x -> x, "no NVML reading");
        String why = nvml instanceof Reading.Present<JsonNode> ? "NVML reports no GPU" : nvml.describe();
        if (onPci > 0) {
            return Finding.of(id, Severity.UNKNOWN, n.outcome().node(), onPci + " NVIDIA GPU(s) on PCI but " + why
                    + ": " + what + " skipped", "the NVIDIA driver loaded", Fix.lines(
                            Fix.note("on " + n.outcome().node() + ": install or load the NVIDIA driver until nvidia-smi "
                                    + "lists the GPUs, then validate again; what the node has now:"),
                            "lspci -nn -d 10de:", "lsmod | grep nvidia", "nvidia-smi", "dmesg | grep -iE 'nvidia|nvrm'"));
        }
        return Finding.of(id, Severity.INFO, n.outcome().node(), "no NVIDIA driver/GPU: " + what + " skipped (" + why + ")",
                "GPUs to benchmark", "");
    }

    /** The findings a bench step printed in its JSON, with the node in their subject. */
    private List<Finding> stepFindings(String node, String step, String id, StepResult r) {
        if (!r.completed()) {
            return List.of(Finding.of(id, r.status() == StepStatus.EXITED && r.exitCode() == 3 ? Severity.UNKNOWN : Severity.FAIL,
                    node, step + ": " + describe(r), step + " to complete", Fix.lines(
                            Fix.note("on " + node + ", the same step with its output on the terminal:"),
                            byHand(r.args().isEmpty() ? List.of(step.split(" ")) : r.args()))));
        }
        List<Finding> out = new ArrayList<>();
        StepJson.parse(r.stdout()).optional().map(StepJson::findings).orElse(List.of()).forEach(f -> out.add(Finding.of(
                f.id(), f.severity(), node + " " + f.subject(), f.observed(), f.expected(), f.remediation())));
        if (out.isEmpty()) out.add(Finding.of(id, Severity.UNKNOWN, node, step + " gave no findings", "a verdict", ""));
        return out;
    }

    /** {@code railyard ARGS} as a user types it: the JSON validate reads is left to the terminal's text. */
    private static String byHand(List<String> args) {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--format") && i + 1 < args.size()) i++;
            else shown.add(ShellWord.of(args.get(i)));
        }
        return "railyard " + String.join(" ", shown);
    }

    /** The validate command as it was typed, with --max-parallel raised to {@code ranks}. */
    private String validateAgain(int ranks) {
        List<String> argv = new ArrayList<>(commandLine.size() >= 2 ? commandLine
                : List.of("railyard", "validate", "--spec", spec.source()));
        for (int i = argv.size() - 1; i >= 0; i--) {
            if (argv.get(i).startsWith("--max-parallel=")) argv.remove(i);
            else if (argv.get(i).equals("--max-parallel") && i + 1 < argv.size()) {
                argv.remove(i + 1);
                argv.remove(i);
            }
        }
        argv.addAll(List.of("--max-parallel", String.valueOf(ranks)));
        return String.join(" ", argv.stream().map(ShellWord::of).toList());
    }

    /**
     * The all_reduce by hand with NCCL's own log: one process for one GPU; else one per GPU as validate started them,
     * on the first two nodes (a fault two nodes show is found without the whole cluster).
     */
    private String ncclByHand(List<NodeStage.NodeResult> withGpus, int ranks, String maxBytes) {
        String common = "railyard bench nccl all_reduce -b 8 -e " + maxBytes;
        if (ranks == 1) {
            return Fix.lines(Fix.note("on " + withGpus.getFirst().outcome().node() + ", with NCCL's own log:"),
                    "NCCL_DEBUG=INFO " + common + " -g 1");
        }
        List<NodeStage.NodeResult> two = withGpus.subList(0, Math.min(2, withGpus.size()));
        int nranks = two.stream().mapToInt(NodeStage.NodeResult::gpuCount).sum();
        String rendezvous = rendezvousHost(two) + ":" + RENDEZVOUS_PORT;
        List<String> lines = new ArrayList<>();
        if (two.size() < withGpus.size()) {
            lines.add(Fix.note("the first two of the " + withGpus.size() + " nodes, with NCCL's own log:"));
        }
        int first = 0;
        for (NodeStage.NodeResult n : two) {
            int g = n.gpuCount();
            lines.add(Fix.note("on " + n.outcome().node() + " (ranks " + first + "-" + (first + g - 1) + ")"
                    + (first == 0 ? ", with NCCL's own log:" : ", at the same time:")));
            lines.add("for d in " + String.join(" ", java.util.stream.IntStream.range(0, g).mapToObj(String::valueOf).toList())
                    + "; do NCCL_DEBUG=INFO " + common + " --rank $((" + first + " + d)) --nranks " + nranks
                    + " --device $d --rendezvous " + ShellWord.of(rendezvous) + " & done; wait");
            first += g;
        }
        return Fix.lines(lines.toArray(String[]::new));
    }

    private static String describe(StepResult r) {
        String said = r.stderr().lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b).orElse("");
        return (r.status() == StepStatus.EXITED ? "exited " + r.exitCode() : r.status().name().toLowerCase(Locale.ROOT) + ": " + r.detail())
                + (said.isEmpty() ? "" : " (" + said + ")");
    }

    private StepResult step(ClusterSpec.Node node, List<String> args) throws InterruptedException {
        try (StepSlots.Held h = slots.acquire(1)) {
            return launcher.run(node, args, settings.stepTimeout());
        }
    }

    private ClusterSpec.Node node(NodeStage.NodeResult n) {
        return spec.node(n.outcome().node()).orElseThrow();
    }

    /** A loopback port nobody uses now; on a remote node the fixed pair port is used instead. */
    private int freePort() {
        if (!launcher.name().equals("local")) return PairStage.BASE_PORT;
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            return PairStage.BASE_PORT;
        }
    }
}
