package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;
import dev.railyard.model.PairTest;

import dev.railyard.platform.Clock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The pairwise tests of every compute network: each network's nodes in round-robin rounds of disjoint pairs, so a
 * node runs one test at a time per network (a pair starts when its two nodes are free, not when the whole round is); networks on separate NICs run side by side, networks sharing a NIC on
 * some node one after the other. After its rounds, a network's pairs below their bar are retested once (attempt 2)
 * in rounds of disjoint pairs again. Every result goes to the recorder the moment it exists.
 */
final class PairStage {

    static final int BASE_PORT = 5201;

    private final ClusterSpec spec;
    private final ValidateSettings settings;
    private final PairRunner runner;
    private final StepSlots slots;
    private final PairJudge judge;
    private final RunRecorder recorder;
    private final String runId;
    private final Progress progress;
    private final List<PairResult> results;
    private final LostNodes lost;
    private final Clock clock;

    PairStage(ClusterSpec spec, ValidateSettings settings, PairRunner runner, StepSlots slots, RunRecorder recorder,
              String runId, Progress progress, List<PairResult> results, LostNodes lost, Clock clock) {
        this.lost = lost;
        this.clock = clock;
        this.spec = spec;
        this.settings = settings;
        this.runner = runner;
        this.slots = slots;
        this.judge = new PairJudge(spec, settings.latencyK());
        this.recorder = recorder;
        this.runId = runId;
        this.progress = progress;
        this.results = results;
    }

    /** A network to test: its nodes that completed their own checks, and the kinds of test its bindings allow. */
    record Plan(ClusterSpec.Network network, int port, RoundRobinSchedule schedule, List<PairKind> kinds) {}

    static List<Plan> plans(ClusterSpec spec, Set<String> usable, boolean full) {
        List<Plan> plans = new ArrayList<>();
        for (int i = 0; i < spec.networks().size(); i++) {
            ClusterSpec.Network n = spec.networks().get(i);
            if (n.role() != ClusterSpec.Role.COMPUTE) continue;
            List<String> nodes = spec.nodes().stream().map(ClusterSpec.Node::name)
                    .filter(usable::contains)
                    .filter(name -> n.bind().containsKey(name) && n.bind().get(name).address().isPresent())
                    .toList();
            if (nodes.size() < 2) continue;
            plans.add(new Plan(n, BASE_PORT + i, RoundRobinSchedule.of(nodes), kinds(n, nodes, full)));
        }
        return plans;
    }

    /**
     * --quick proves each link with one bandwidth test: RDMA where both ends have an RDMA port bound, else TCP.
     * --full adds the latencies and TCP beside RDMA (a person comparing the fabric's kinds of traffic wants all three).
     */
    static List<PairKind> kinds(ClusterSpec.Network n, List<String> nodes, boolean full) {
        boolean rdma = nodes.stream().allMatch(name -> n.bind().get(name).rdma().isPresent());
        if (!full) return List.of(rdma ? PairKind.RDMA_BANDWIDTH : PairKind.TCP_BANDWIDTH);
        List<PairKind> kinds = new ArrayList<>(List.of(PairKind.TCP_BANDWIDTH, PairKind.TCP_LATENCY));
        if (rdma) {
            kinds.add(PairKind.RDMA_BANDWIDTH);
            kinds.add(PairKind.RDMA_LATENCY);
        }
        return kinds;
    }

    /**
     * Networks that share a NIC on any node (the same netdev or RDMA device) fall in one group and run one after the
     * other; groups run side by side.
     */
    static List<List<Plan>> groups(List<Plan> plans) {
        List<List<Plan>> groups = new ArrayList<>();
        List<Set<String>> nics = new ArrayList<>();
        for (Plan p : plans) {
            Set<String> mine = new HashSet<>();
            p.network().bind().forEach((node, b) -> {
                mine.add(node + "/" + b.netdev());
                b.rdma().ifPresent(r -> mine.add(node + "/" + r.device()));
            });
            List<Integer> joined = new ArrayList<>();
            for (int g = 0; g < groups.size(); g++) {
                if (nics.get(g).stream().anyMatch(mine::contains)) joined.add(g);
            }
            if (joined.isEmpty()) {
                groups.add(new ArrayList<>(List.of(p)));
                nics.add(mine);
                continue;
            }
            int into = joined.getFirst();
            groups.get(into).add(p);
            nics.get(into).addAll(mine);
            for (int k = joined.size() - 1; k >= 1; k--) { // p bridges several groups: merge them
                int g = joined.get(k);
                groups.get(into).addAll(groups.remove(g));
                nics.get(into).addAll(nics.remove(g));
            }
        }
        return groups;
    }

    static int steps(List<Plan> plans) {
        return plans.stream().mapToInt(p -> p.schedule().pairCount() * p.kinds().size()).sum();
    }

    /** Runs every group side by side; returns the most rounds any network needed. */
    int run(List<Plan> plans) throws InterruptedException {
        List<List<Plan>> groups = groups(plans);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            for (List<Plan> group : groups) {
                running.add(pool.submit(() -> {
                    for (Plan p : group) runNetwork(p);
                    return null;
                }));
            }
            try {
                for (Future<?> f : running) f.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof InterruptedException ie) throw ie;
                throw new IllegalStateException("pair stage failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                running.forEach(f -> f.cancel(true));
                throw e;
            }
        }
        return plans.stream().mapToInt(p -> p.schedule().rounds().size()).max().orElse(0);
    }

    private void runNetwork(Plan plan) throws InterruptedException {
        String net = plan.network().name();
        List<List<RoundRobinSchedule.Pair>> rounds = plan.schedule().rounds();
        List<PairResult> mine = runRoundsAsNodesFree(plan, rounds);
        // only the kinds that were bad are retested, each pair once
        Map<RoundRobinSchedule.Pair, List<PairKind>> bad = new LinkedHashMap<>();
        judge.eachLatest(mine, j -> {
            if (j.bad()) bad.computeIfAbsent(new RoundRobinSchedule.Pair(j.test().client(), j.test().server()),
                    k -> new ArrayList<>()).add(j.kind());
        });
        // a pair with a lost end is not run again: its failure was the loss, not the link
        bad.keySet().removeIf(p -> lost.either(p.first(), p.second()).isPresent());
        if (bad.isEmpty()) return;
        List<List<RoundRobinSchedule.Pair>> batches = disjointBatches(List.copyOf(bad.keySet()));
        if (plan.schedule().nodes().size() >= 3 && bad.size() >= CulpritFinder.RAIL_SHARE * plan.schedule().pairCount()) {
            // bad nearly everywhere: one round of retests confirms a rail-wide problem; n-1 more rounds would not add to it
            batches = batches.subList(0, 1);
            Set<RoundRobinSchedule.Pair> sample = Set.copyOf(batches.getFirst());
            bad.keySet().retainAll(sample);
        }
        progress.addSteps(bad.values().stream().mapToInt(List::size).sum());
        for (int b = 0; b < batches.size(); b++) {
            progress.phase(net + " retest " + (b + 1) + "/" + batches.size());
            runRound(plan, batches.get(b), rounds.size() + b + 1, 2, bad);
        }
    }

    /** Rounds that may be in flight at once: a pair can run this many rounds ahead of the slowest pair. */
    static final int ROUNDS_AHEAD = 2;

    /**
     * The circle method's rounds without a barrier between them: a pair starts as soon as both of its nodes have
     * finished their pair of the round before, so one slow pair holds up its own two nodes, not the whole cluster
     * (on the 8-host namespace cluster the slowest pair of a round took 1.3 x the median). Every node still runs one
     * test at a time per network. At most {@link #ROUNDS_AHEAD} + 1 rounds are queued at once, so 512 hosts do not
     * hold 130,000 pending pairs.
     */
    private List<PairResult> runRoundsAsNodesFree(Plan plan, List<List<RoundRobinSchedule.Pair>> rounds)
            throws InterruptedException {
        String net = plan.network().name();
        List<PairResult> out = new ArrayList<>();
        Map<String, CompletableFuture<List<PairResult>>> lastOfNode = new HashMap<>();
        List<List<CompletableFuture<List<PairResult>>>> inFlight = new ArrayList<>();
        AtomicInteger startedRound = new AtomicInteger();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (int r = 0; r < rounds.size(); r++) {
                if (inFlight.size() > ROUNDS_AHEAD) out.addAll(await(inFlight.removeFirst()));
                int round = r + 1;
                List<CompletableFuture<List<PairResult>>> these = new ArrayList<>();
                for (RoundRobinSchedule.Pair pair : rounds.get(r)) {
                    CompletableFuture<List<PairResult>> before = CompletableFuture.allOf(
                            lastOfNode.getOrDefault(pair.first(), DONE), lastOfNode.getOrDefault(pair.second(), DONE))
                            .thenApply(v -> List.of());
                    CompletableFuture<List<PairResult>> f = before.thenApplyAsync(v -> {
                        if (startedRound.getAndAccumulate(round, Math::max) < round) {
                            progress.phase(net + " round " + round + "/" + rounds.size());
                        }
                        try {
                            return runPair(plan, pair, plan.kinds(), round, 1);
                        } catch (InterruptedException e) {
                            throw new CompletionException(e);
                        }
                    }, pool);
                    lastOfNode.put(pair.first(), f);
                    lastOfNode.put(pair.second(), f);
                    these.add(f);
                }
                inFlight.add(these);
            }
            while (!inFlight.isEmpty()) out.addAll(await(inFlight.removeFirst()));
        } catch (InterruptedException e) {
            // stop what runs (the steps' own waits are interrupted and kill them) and what waits to run
            pool.shutdownNow();
            inFlight.forEach(round -> round.forEach(f -> f.cancel(true)));
            throw e;
        } finally {
            pool.shutdown();
            pool.close();
        }
        return out;
    }

    private static final CompletableFuture<List<PairResult>> DONE = CompletableFuture.completedFuture(List.of());

    /** Each pair's results in order; a pair's InterruptedException comes back as itself, anything else as a bug. */
    private static List<PairResult> await(List<? extends Future<List<PairResult>>> round) throws InterruptedException {
        List<PairResult> out = new ArrayList<>();
        for (Future<List<PairResult>> f : round) {
            try {
                out.addAll(f.get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
                if (cause instanceof InterruptedException ie) throw ie;
                throw new IllegalStateException(cause);
            }
        }
        return out;
    }

    /** Greedy: each pair goes into the first batch where neither of its nodes is busy yet. */
    static List<List<RoundRobinSchedule.Pair>> disjointBatches(List<RoundRobinSchedule.Pair> pairs) {
        List<List<RoundRobinSchedule.Pair>> batches = new ArrayList<>();
        List<Set<String>> busy = new ArrayList<>();
        for (RoundRobinSchedule.Pair p : pairs) {
            int b = 0;
            while (b < batches.size() && (busy.get(b).contains(p.first()) || busy.get(b).contains(p.second()))) b++;
            if (b == batches.size()) {
                batches.add(new ArrayList<>());
                busy.add(new HashSet<>());
            }
            batches.get(b).add(p);
            busy.get(b).add(p.first());
            busy.get(b).add(p.second());
        }
        return batches;
    }

    private List<PairResult> runRound(Plan plan, List<RoundRobinSchedule.Pair> pairs, int round, int attempt,
                                      Map<RoundRobinSchedule.Pair, List<PairKind>> kinds) throws InterruptedException {
        Map<RoundRobinSchedule.Pair, Future<List<PairResult>>> running = new LinkedHashMap<>();
        List<PairResult> out = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (RoundRobinSchedule.Pair pair : pairs) {
                List<PairKind> these = kinds.getOrDefault(pair, plan.kinds());
                running.put(pair, pool.submit(() -> runPair(plan, pair, these, round, attempt)));
            }
            try {
                out.addAll(await(List.copyOf(running.values())));
            } catch (InterruptedException e) {
                // cancel before the pool's close waits for them: the steps' own waits are interrupted and kill them
                running.values().forEach(f -> f.cancel(true));
                throw e;
            }
        }
        return out;
    }

    private List<PairResult> runPair(Plan plan, RoundRobinSchedule.Pair pair, List<PairKind> kinds, int round, int attempt)
            throws InterruptedException {
        List<PairResult> out = new ArrayList<>();
        ClusterSpec.Network n = plan.network();
        String serverAddress = bare(n.bind().get(pair.second()).address().orElseThrow());
        for (PairKind kind : kinds) {
            PairTest test = new PairTest(n.name(), pair.first(), pair.second(), serverAddress, kind);
            Optional<LostNodes.Lost> gone = lost.either(pair.first(), pair.second());
            PairResult r;
            if (gone.isPresent()) {
                r = new PairResult(test, round, attempt, new PairOutcome.NotRun(gone.get().describe()), clock.now(),
                        Duration.ZERO);
            } else {
                try (StepSlots.Held h = slots.acquire(2)) {
                    r = runner.run(test, round, attempt, plan.port());
                }
                if (r.outcome() instanceof PairOutcome.Failed(String why)) r = lostEndOrFailed(r, why);
            }
            results.add(r);
            recorder.pairMeasured(runId, r);
            progress.stepDone(test.subject() + " " + kind.checkId() + (attempt > 1 ? " (retest)" : ""));
            out.add(r);
        }
        return out;
    }

    /**
     * A failed pair whose end the transport no longer reaches was cut by that node's loss: it is not run, and says
     * which node went when, with the transport's words and the test's own. Otherwise the failure is the pair's.
     */
    private PairResult lostEndOrFailed(PairResult r, String why) throws InterruptedException {
        Optional<LostNodes.Lost> gone = Optional.empty();
        for (String end : List.of(r.test().server(), r.test().client())) {
            Optional<LostNodes.Lost> known = lost.of(end);
            if (known.isPresent()) {
                gone = known;
                break;
            }
            StepResult check = runner.reach(end);
            if (LostNodes.gone(check)) {
                LostNodes.Lost l = lost.mark(end, clock.now(), check.detail().isBlank() ? check.status().name() : check.detail());
                progress.note("node " + l.describe() + "; its remaining pairs are not run");
                gone = Optional.of(l);
                break;
            }
        }
        return gone.map(l -> new PairResult(r.test(), r.round(), r.attempt(),
                new PairOutcome.NotRun(l.describe() + " (the test: " + why + ")"), r.startedAt(), r.elapsed()))
                .orElse(r);
    }

    private static String bare(String address) {
        int slash = address.indexOf('/');
        return slash < 0 ? address : address.substring(0, slash);
    }
}
