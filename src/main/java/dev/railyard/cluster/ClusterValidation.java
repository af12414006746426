package dev.railyard.cluster;

import dev.railyard.check.ClusterCheck;
import dev.railyard.check.ClusterInput;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Culprit;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;
import dev.railyard.platform.Cancellation;
import dev.railyard.platform.Clock;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

/**
 * One validate run over a cluster, through a launcher: every node's inventory and checks (bounded fan-out), the
 * cluster checks across nodes, the pair matrix of each compute network with retests and culprits, then NCCL, GPU and
 * storage benchmarks. Results reach the recorder as they come; {@link #report(boolean)} builds the report from
 * whatever exists, so an interrupted run still reports what it measured.
 */
public final class ClusterValidation {

    private final ClusterSpec spec;
    private final Optional<String> specBase64;
    private final StopNoticingLauncher launcher;
    private final ValidateSettings settings;
    private final Endurance endurance;
    private final RunRecorder recorder;
    private final Progress progress;
    private final Clock clock;
    private final String runId;
    private final Instant startedAt;
    private final StepSlots slots;

    private final Map<String, NodeStage.NodeResult> nodes = new ConcurrentHashMap<>();
    private final List<PairResult> pairs = Collections.synchronizedList(new ArrayList<>());
    private final List<Finding> clusterFindings = Collections.synchronizedList(new ArrayList<>());
    private final BenchStage.Output bench = new BenchStage.Output();
    private final LostNodes lost = new LostNodes();
    private volatile int rounds;
    private volatile Cancellation stop = Cancellation.create();
    /** The pair verdicts once the pair stage is done; an interrupted run judges what it has when asked. */
    private volatile Judged judged;

    public ClusterValidation(ClusterSpec spec, Optional<String> specBase64, Launcher launcher, ValidateSettings settings,
                             RunRecorder recorder, Progress progress, Clock clock, String runId) {
        this(spec, specBase64, launcher, settings, Endurance.none(), recorder, progress, clock, runId);
    }

    public ClusterValidation(ClusterSpec spec, Optional<String> specBase64, Launcher launcher, ValidateSettings settings,
                             Endurance endurance, RunRecorder recorder, Progress progress, Clock clock, String runId) {
        this.endurance = endurance;
        this.spec = spec;
        this.specBase64 = specBase64;
        this.launcher = new StopNoticingLauncher(new InRunLauncher(launcher, runId));
        this.settings = settings;
        this.recorder = recorder;
        this.progress = progress;
        this.clock = clock;
        this.runId = runId;
        this.startedAt = clock.now();
        this.slots = new StepSlots(settings.maxParallel());
    }

    public String runId() {
        return runId;
    }

    /** Runs every stage with a token nothing cancels: an interrupt of this thread still ends it early. */
    public ValidationReport run(List<String> commandLine) throws InterruptedException {
        return run(commandLine, Cancellation.create());
    }

    /**
     * Runs every stage; cancelling {@code stop} (Ctrl-C, SIGTERM) ends it early, with what was measured kept for
     * {@link #report}: the stages' thread is interrupted and every remote step stopped with its process group. The
     * interrupt reaches the stages only: once they are done it is cleared, so the caller's report files are written
     * whole (interruptible channels would close on it).
     */
    public ValidationReport run(List<String> commandLine, Cancellation stop) throws InterruptedException {
        this.stop = stop;
        Thread stages = Thread.currentThread();
        Object inRunLock = new Object();
        boolean[] inRun = {true};
        try (Cancellation.Registration onStop = stop.onCancel(() -> {
            synchronized (inRunLock) {
                if (inRun[0]) stages.interrupt();
            }
            launcher.close();
        })) {
            return stages(commandLine);
        } finally {
            synchronized (inRunLock) {
                inRun[0] = false;
            }
            Thread.interrupted();
        }
    }

    private ValidationReport stages(List<String> commandLine) throws InterruptedException {
        recorder.runStarted(new RunHeader(runId, spec.cluster(), launcher.name(),
                spec.nodes().stream().map(ClusterSpec.Node::name).toList(), commandLine, startedAt));
        progress.addSteps(spec.nodes().size() * NodeStage.STEPS_PER_NODE);
        progress.phase("nodes: inventory and checks");
        runNodes();
        stopIfAStepWasStopped();

        clusterFindings.addAll(clusterChecks());
        recorder.findingsAdded(runId, "cluster", List.copyOf(clusterFindings));
        if (endurance.burn().isPresent()) {
            // nodes, then fabric: every GPU loaded before any pair test, as acceptance tests order it
            new BurnStage(launcher, spec, settings, slots, progress).run(orderedNodes(), endurance.burn().get(), bench);
            recorder.findingsAdded(runId, "burn", List.copyOf(bench.findings()));
            stopIfAStepWasStopped();
        }
        int afterBurn = bench.findings().size();

        Set<String> usable = nodes.values().stream().filter(NodeStage.NodeResult::completed).map(n -> n.outcome().node())
                .collect(Collectors.toSet());
        List<PairStage.Plan> plans = PairStage.plans(spec, usable, settings.full());
        progress.addSteps(PairStage.steps(plans));
        rounds = plans.stream().mapToInt(p -> p.schedule().rounds().size()).max().orElse(0);
        try (PairRunner runner = new PairRunner(launcher, spec, settings, clock, rounds)) {
            new PairStage(spec, settings, runner, slots, recorder, runId, progress, pairs, lost, clock).run(plans);
        }
        orderedNodes().stream().filter(n -> n.outcome().status() == NodeStatus.LOST)
                .forEach(n -> recorder.nodeFinished(runId, n.outcome()));
        stopIfAStepWasStopped();
        judged = judgePairs(plans);
        recorder.findingsAdded(runId, "pairs", judged.findings());
        recorder.culpritsFound(runId, judged.culprits());

        List<NodeStage.NodeResult> ordered = orderedNodes();
        progress.addSteps(BenchStage.steps(ordered, settings.full()));
        new BenchStage(launcher, spec, settings, slots, progress, commandLine).run(ordered, bench);
        recorder.findingsAdded(runId, "bench", List.copyOf(bench.findings().subList(afterBurn, bench.findings().size())));
        bench.curves().forEach(c -> recorder.curveMeasured(runId, c));
        recorder.measured(runId, List.copyOf(bench.measurements()));
        stopIfAStepWasStopped();

        if (endurance.soak().isPresent()) {
            // the soak's findings and figures join the benchmarks' in the report; the history keeps them apart
            int findings = bench.findings().size();
            int measured = bench.measurements().size();
            new SoakStage(new SoakTraffic(spec, launcher, settings, slots, progress, lost, clock, runId, commandLine),
                    clock, endurance.soak().get()).run(orderedNodes(), bench);
            recorder.findingsAdded(runId, "soak", List.copyOf(bench.findings().subList(findings, bench.findings().size())));
            recorder.measured(runId, List.copyOf(bench.measurements().subList(measured, bench.measurements().size())));
            stopIfAStepWasStopped();
        }

        ValidationReport report = report(true);
        recorder.runFinished(runId, report.finishedAt().orElse(clock.now()), report.severity());
        progress.finish();
        return report;
    }

    /**
     * A step ended by the user's stop means the run is being stopped, even where the signal beat the interrupt of this
     * thread: the report must say incomplete, not judge the steps that never ran.
     */
    private void stopIfAStepWasStopped() throws InterruptedException {
        stop.throwIfCancelled();
        if (launcher.stepStopped()) {
            throw new InterruptedException("a step was stopped by an interrupt");
        }
    }

    private void runNodes() throws InterruptedException {
        NodeStage stage = new NodeStage(launcher, settings, slots, specBase64, progress, clock);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            for (ClusterSpec.Node node : spec.nodes()) {
                running.add(pool.submit(() -> {
                    NodeStage.NodeResult r = stage.run(node);
                    nodes.put(node.name(), r);
                    recorder.nodeFinished(runId, r.outcome());
                    if (!r.completed()) progress.note("node " + node.name() + ": " + r.outcome().status() + ", " + r.outcome().detail());
                    return null;
                }));
            }
            try {
                for (Future<?> f : running) f.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof InterruptedException ie) throw ie;
                throw new IllegalStateException("node stage failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                running.forEach(f -> f.cancel(true));
                throw e;
            }
        }
    }

    private List<Finding> clusterChecks() {
        Map<String, NodeFacts> facts = new LinkedHashMap<>();
        Map<String, String> missing = new LinkedHashMap<>();
        for (NodeStage.NodeResult r : orderedNodes()) {
            NodeOutcome o = r.outcome();
            if (r.completed() && o.facts().isPresent()) facts.put(o.node(), o.facts().get());
            else missing.put(o.node(), o.status().name().toLowerCase() + ": " + o.detail());
        }
        ClusterInput in = new ClusterInput(spec, facts, missing);
        List<Finding> out = new ArrayList<>();
        for (ClusterCheck c : ClusterCheck.all()) out.addAll(c.run(in));
        return out;
    }

    private record Judged(List<Finding> findings, List<Culprit> culprits) {}

    private Judged judgePairs(List<PairStage.Plan> plans) {
        // Pairs finish in whatever order the hosts answer; judge them in the plans' order so the report reads the
        // same on every run: networks as the spec lists them, then kind, round and pair.
        List<String> networks = plans.stream().map(p -> p.network().name()).toList();
        List<PairResult> all = List.copyOf(pairs).stream().sorted(Comparator
                .comparingInt((PairResult r) -> networks.indexOf(r.test().network()))
                .thenComparing(r -> r.test().kind())
                .thenComparingInt(PairResult::round)
                .thenComparing(r -> r.test().client())
                .thenComparing(r -> r.test().server())
                .thenComparingInt(PairResult::attempt)).toList();
        List<PairJudgement> judged = new PairJudge(spec, settings.latencyK()).judgeLatest(all);
        List<CulpritFinder.NetworkPairs> nets = new ArrayList<>();
        for (PairStage.Plan p : plans) {
            String name = p.network().name();
            nets.add(new CulpritFinder.NetworkPairs(name, p.schedule().nodes(), p.network().rateGbps(),
                    p.network().carriesRdma(),
                    judged.stream().filter(j -> j.test().network().equals(name) && !j.notRun()).toList()));
        }
        List<Finding> findings = new ArrayList<>(untestedNoted(PairJudge.findings(judged), plans));
        findings.addAll(neverTested(plans, judged));
        return new Judged(notTestedNoted(findings), CulpritFinder.find(nets));
    }

    /** Why a planned pair has no result at all: only a stopped run leaves one so. */
    static final String STOPPED_BEFORE = "not run: the run was stopped before this pair was tested";

    /**
     * The planned pairs of a run stopped early that never got a result, as UNKNOWN findings (skipped in JUnit, with
     * the reason): an interrupted run must not read "10 of 10 pairs within expect" when 18 were never tested. A run
     * that tested every pair pays nothing here.
     */
    private List<Finding> neverTested(List<PairStage.Plan> plans, List<PairJudgement> judged) {
        if (judged.size() >= PairStage.steps(plans)) return List.of();
        Set<String> tested = new java.util.HashSet<>();
        for (PairJudgement j : judged) tested.add(testKey(j.test().network(), j.test().client(), j.test().server(), j.kind()));
        List<Finding> out = new ArrayList<>();
        for (PairStage.Plan p : plans) {
            String net = p.network().name();
            for (dev.railyard.model.PairKind kind : p.kinds()) {
                int missing = 0;
                for (List<RoundRobinSchedule.Pair> round : p.schedule().rounds()) {
                    for (RoundRobinSchedule.Pair pair : round) {
                        if (tested.contains(testKey(net, pair.first(), pair.second(), kind))) continue;
                        if (missing++ < PairJudge.FINDINGS_PER_GROUP) {
                            PairTest t = new PairTest(net, pair.first(), pair.second(), "", kind);
                            out.add(Finding.of(kind.checkId(), Severity.UNKNOWN, t.subject(), STOPPED_BEFORE,
                                    "a tested pair", "run validate again to test it"));
                        }
                    }
                }
                if (missing > PairJudge.FINDINGS_PER_GROUP) {
                    out.add(Finding.of(kind.checkId(), Severity.UNKNOWN, net, (missing - PairJudge.FINDINGS_PER_GROUP)
                            + " more pairs not run: the run was stopped first", "every pair tested",
                            "run validate again to test them"));
                }
            }
        }
        return out;
    }

    private static String testKey(String network, String a, String b, dev.railyard.model.PairKind kind) {
        return a.compareTo(b) <= 0 ? network + " " + a + " " + b + " " + kind : network + " " + b + " " + a + " " + kind;
    }

    /** A network's PASS says how many of its pairs were not tested (lost end, stopped run), so it is not read as whole. */
    private static List<Finding> notTestedNoted(List<Finding> findings) {
        Map<String, Integer> notTested = new java.util.HashMap<>();
        for (Finding f : findings) {
            if (f.severity() != Severity.UNKNOWN || !f.id().startsWith("bench.")) continue;
            int n = f.observed().startsWith("not run") ? 1 : leadingCount(f.observed());
            notTested.merge(f.id() + " " + network(f.subject()), n, Integer::sum);
        }
        if (notTested.isEmpty()) return findings;
        return findings.stream().map(f -> f.severity() == Severity.PASS && notTested.containsKey(f.id() + " " + f.subject())
                ? Finding.pass(f.id(), f.subject(), f.observed() + "; " + notTested.get(f.id() + " " + f.subject())
                        + " not tested", f.expected())
                : f).toList();
    }

    private static String network(String subject) {
        int space = subject.indexOf(' ');
        return space < 0 ? subject : subject.substring(0, space);
    }

    private static int leadingCount(String observed) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+) more pairs not run").matcher(observed);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /**
     * A network's PASS covers the pairs that ran: where nodes bound to it were not reached, its words name them, so
     * "1 of 1 pairs within expect" is not read as the whole network proven (the verdict line names them too).
     */
    private List<Finding> untestedNoted(List<Finding> findings, List<PairStage.Plan> plans) {
        Map<String, String> untested = new java.util.HashMap<>();
        for (PairStage.Plan p : plans) {
            List<String> left = spec.nodes().stream().map(ClusterSpec.Node::name)
                    .filter(n -> p.network().bind().containsKey(n) && p.network().bind().get(n).address().isPresent())
                    .filter(n -> !p.schedule().nodes().contains(n))
                    .map(n -> n + " (" + Optional.ofNullable(nodes.get(n))
                            .map(r -> r.outcome().status().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
                            .orElse("not run") + ")")
                    .toList();
            if (!left.isEmpty()) untested.put(p.network().name(), String.join(", ", left));
        }
        if (untested.isEmpty()) return findings;
        return findings.stream().map(f -> f.severity() == Severity.PASS && untested.containsKey(f.subject())
                ? Finding.pass(f.id(), f.subject(), f.observed() + "; not tested: " + untested.get(f.subject()),
                        f.expected())
                : f).toList();
    }

    /**
     * Every node in the spec's order: as its own stage left it, NOT_RUN where it never finished, and LOST (keeping
     * what it measured) where its transport failed later in the run.
     */
    private List<NodeStage.NodeResult> orderedNodes() {
        List<NodeStage.NodeResult> out = new ArrayList<>();
        for (ClusterSpec.Node n : spec.nodes()) {
            NodeStage.NodeResult r = nodes.get(n.name());
            Optional<LostNodes.Lost> gone = lost.of(n.name());
            if (r != null && r.completed() && gone.isPresent()) {
                NodeOutcome o = r.outcome();
                r = new NodeStage.NodeResult(new NodeOutcome(o.node(), NodeStatus.LOST, gone.get().describe()
                        + "; its tests after that were not run", o.findings(), o.facts()), r.inventory());
            }
            out.add(r != null ? r : new NodeStage.NodeResult(new NodeOutcome(n.name(), NodeStatus.NOT_RUN,
                    "the run ended before this node finished", List.of(), Optional.empty()), Optional.empty()));
        }
        return out;
    }

    /** The report from everything measured so far; {@code complete} false for an interrupted run. */
    public ValidationReport report(boolean complete) {
        Judged judged = this.judged;
        if (judged == null) {
            Set<String> usable = nodes.values().stream().filter(NodeStage.NodeResult::completed).map(n -> n.outcome().node())
                    .collect(Collectors.toSet());
            judged = judgePairs(PairStage.plans(spec, usable, settings.full()));
        }
        // a stopped run has no end (docs/validate-report.md), and its rounds are those that started, not those planned
        int roundsRun = complete ? rounds : pairs.stream().filter(r -> r.attempt() == 1).mapToInt(PairResult::round)
                .max().orElse(0);
        return new ValidationReport(ValidationReport.SCHEMA_VERSION, runId, spec.cluster(), launcher.name(), startedAt,
                complete ? Optional.of(clock.now()) : Optional.empty(), complete, roundsRun, orderedNodes().stream().map(NodeStage.NodeResult::outcome).toList(),
                List.copyOf(clusterFindings), List.copyOf(pairs), judged.findings(), judged.culprits(),
                List.copyOf(bench.findings()), List.copyOf(bench.curves()), List.copyOf(bench.measurements()));
    }
}
