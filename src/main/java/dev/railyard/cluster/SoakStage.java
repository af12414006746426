package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.check.SoakCounterGrowth;
import dev.railyard.check.SoakSpread;
import dev.railyard.model.Finding;
import dev.railyard.model.Measurement;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.SizeCurve;
import dev.railyard.platform.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * validate --soak: the fabric under sustained traffic for a window. NCCL all_reduce across every GPU and the pair
 * bandwidth tests of every compute network are repeated until the window has passed (a repetition that started
 * finishes); every RDMA port's error counters are read before (the node stage's inventory) and after. The spread of
 * each figure over the repetitions is judged by {@link SoakSpread}, counter growth by {@link SoakCounterGrowth}.
 */
final class SoakStage {

    /** What the soak drives, from the validate run it belongs to. */
    interface Stages {
        dev.railyard.model.ClusterSpec spec();

        Progress progress();

        PairRunner pairRunner(int rounds);

        /** A pair stage whose results go to {@code results} only: the soak's repetitions are not the report's pairs. */
        PairStage pairStage(PairRunner runner, List<PairResult> results);

        BenchStage bench();

        StepResult step(String node, List<String> args) throws InterruptedException;
    }

    static final String NCCL_SERIES = "NCCL all_reduce busbw";
    static final String MIN = "soak min ";
    static final String MEDIAN = "soak median ";

    private final Stages stages;
    private final Clock clock;
    private final Duration window;

    SoakStage(Stages stages, Clock clock, Duration window) {
        this.stages = stages;
        this.clock = clock;
        this.window = window;
    }

    /** What one repetition measured: the figure of each series, or why it has none. */
    private final Map<String, List<Double>> values = new LinkedHashMap<>();
    private final Map<String, List<String>> failures = new LinkedHashMap<>();
    private final Map<String, String> units = new LinkedHashMap<>();
    private final Map<String, Optional<Double>> floors = new LinkedHashMap<>();

    void run(List<NodeStage.NodeResult> nodes, BenchStage.Output out) throws InterruptedException {
        List<NodeStage.NodeResult> done = nodes.stream().filter(NodeStage.NodeResult::completed).toList();
        Set<String> usable = done.stream().map(n -> n.outcome().node()).collect(Collectors.toSet());
        List<PairStage.Plan> plans = PairStage.plans(stages.spec(), usable, false);
        boolean gpus = done.stream().anyMatch(n -> n.gpuCount() > 0);
        Instant start = clock.now();
        Instant end = start.plus(window);
        int repetition = 0;
        try {
            do {
                repetition++;
                stages.progress().phase("soak repetition " + repetition + ", " + SoakCounterGrowth.errorCounters().size()
                        + " counters per port read after " + window);
                pairs(plans);
                if (gpus) nccl(done);
            } while (clock.now().isBefore(end));
        } finally {
            // an interrupted soak keeps the repetitions it finished; the counters are read only after a whole window
            judge(out, repetition);
        }
        counters(done, out);
    }

    private void pairs(List<PairStage.Plan> plans) throws InterruptedException {
        if (plans.isEmpty()) return;
        List<PairResult> results = Collections.synchronizedList(new ArrayList<>());
        int rounds = plans.stream().mapToInt(p -> p.schedule().rounds().size()).max().orElse(0);
        try (PairRunner runner = stages.pairRunner(rounds)) {
            stages.pairStage(runner, results).run(plans);
        }
        // a pair below expect is retested once within the repetition: its last attempt is the repetition's figure
        Map<String, PairResult> latest = new LinkedHashMap<>();
        for (PairResult r : List.copyOf(results)) {
            latest.merge(r.test().subject() + " " + r.test().kind(), r, (a, b) -> b.attempt() > a.attempt() ? b : a);
        }
        for (PairResult r : latest.values()) {
            if (r.test().kind() != PairKind.TCP_BANDWIDTH && r.test().kind() != PairKind.RDMA_BANDWIDTH) continue;
            String series = r.test().subject() + " " + (r.test().kind() == PairKind.RDMA_BANDWIDTH ? "RDMA" : "TCP") + " bandwidth";
            units.putIfAbsent(series, "Gb/s");
            floors.putIfAbsent(series, Optional.empty());
            switch (r.outcome()) {
                case PairOutcome.Measured(double gbps) -> values.computeIfAbsent(series, k -> new ArrayList<>()).add(gbps);
                case PairOutcome.Failed(String why) -> failures.computeIfAbsent(series, k -> new ArrayList<>()).add(why);
                case PairOutcome.NotRun(String why) -> failures.computeIfAbsent(series, k -> new ArrayList<>()).add(why);
            }
        }
    }

    private void nccl(List<NodeStage.NodeResult> done) throws InterruptedException {
        BenchStage.Output scratch = new BenchStage.Output();
        stages.bench().nccl(done, scratch);
        Optional<SizeCurve> curve = scratch.curves().stream().findFirst();
        String series = curve.map(SizeCurve::subject).map(s -> NCCL_SERIES + " " + s).orElse(NCCL_SERIES);
        units.putIfAbsent(series, "GB/s");
        floors.putIfAbsent(series, stages.spec().expect().ncclBusbwGBps());
        if (curve.isPresent() && !curve.get().points().isEmpty()) {
            values.computeIfAbsent(series, k -> new ArrayList<>()).add(curve.get().points().getLast().value());
        } else {
            String why = scratch.findings().stream().filter(f -> f.severity() != Severity.PASS).map(Finding::observed)
                    .findFirst().orElse("no busbw");
            failures.computeIfAbsent(series, k -> new ArrayList<>()).add(why);
        }
    }

    private void judge(BenchStage.Output out, int repetitions) {
        Set<String> all = new java.util.LinkedHashSet<>(units.keySet());
        for (String series : all) {
            List<Double> v = values.getOrDefault(series, List.of());
            List<String> why = failures.getOrDefault(series, List.of());
            SoakSpread.Series s = new SoakSpread.Series(series, units.get(series), v, why.size(), why);
            out.findings().addAll(SoakSpread.judge(s, floors.get(series)));
            if (!v.isEmpty()) {
                out.measurements().add(new Measurement(MIN + series, stages.spec().cluster(), s.min(), s.unit()));
                out.measurements().add(new Measurement(MEDIAN + series, stages.spec().cluster(), s.median(), s.unit()));
            }
        }
        if (all.isEmpty()) {
            out.findings().add(Finding.of(dev.railyard.model.CheckId.SOAK_BUSBW.id(), Severity.UNKNOWN,
                    stages.spec().cluster(), "nothing to soak after " + repetitions + " repetitions: no compute network "
                            + "binds two proven nodes and no node has a GPU", "traffic for the soak's window", ""));
        }
    }

    private void counters(List<NodeStage.NodeResult> done, BenchStage.Output out) throws InterruptedException {
        for (NodeStage.NodeResult n : done) {
            List<SoakCounterGrowth.PortCounters> before = n.inventory().map(SoakStage::ports).orElse(List.of());
            if (before.isEmpty()) continue;
            StepResult r = stages.step(n.outcome().node(), NodeArgv.write(new NodeRequest.Inventory()));
            Reading<List<SoakCounterGrowth.PortCounters>> after = !r.completed()
                    ? Reading.absent("inventory " + r.status().name().toLowerCase(java.util.Locale.ROOT) + " " + r.detail())
                    : StepJson.parse(r.stdout()).map(SoakStage::ports);
            out.findings().addAll(SoakCounterGrowth.judge(n.outcome().node(), window, before, after));
        }
    }

    private static Long count(JsonNode x) {
        if (!x.canConvertToLong()) throw new IllegalArgumentException("not a count");
        return x.asLong();
    }

    /** Every RDMA port's counters from a node's inventory JSON. */
    static List<SoakCounterGrowth.PortCounters> ports(JsonNode inventory) {
        List<SoakCounterGrowth.PortCounters> out = new ArrayList<>();
        for (JsonNode dev : inventory.path("rdmaDevices")) {
            for (JsonNode p : dev.path("ports")) {
                Map<String, Reading<Long>> counters = new LinkedHashMap<>();
                p.path("counters").properties().forEach(e -> counters.put(e.getKey(), StepJson.reading(e.getValue(),
                        SoakStage::count, "no value")));
                out.add(new SoakCounterGrowth.PortCounters(dev.path("name").asText("?") + ":" + p.path("port").asInt(),
                        counters));
            }
        }
        return out;
    }
}
