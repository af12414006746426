package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.Jargon;
import dev.railyard.check.RunnableFixes;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.PairKind;
import dev.railyard.model.PairResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every finding validate makes itself (the bench stage's loopback, GPU copy, NCCL and storage steps, and the pair
 * verdicts) that carries a fix, each branch reached through a launcher whose steps fail as told, gives lines to run
 * as they are: "# on NODE:" and that node's commands, the railyard command the step ran, validate again with the
 * room NCCL needs. Every failure is listed at once.
 */
class ValidateFixesTest {

    private static final List<String> COMMAND = List.of("railyard", "validate", "--spec", "cluster.yaml", "--full",
            "--max-parallel", "2");

    private final List<String> problems = new ArrayList<>();
    private final Set<String> reached = new TreeSet<>();

    /** A launcher whose every step exits 2 with a line on stderr, as a railyard step that could not run does. */
    private static final class Failing implements Launcher {

        @Override
        public String name() {
            return "failing";
        }

        @Override
        public StepResult prepare(ClusterSpec.Node node, Duration timeout) {
            return failed(node, List.of());
        }

        @Override
        public StepResult run(ClusterSpec.Node node, List<String> args, Duration timeout) {
            return failed(node, args);
        }

        final List<List<String>> started = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public RemoteProcess start(ClusterSpec.Node node, List<String> args, Duration timeout) {
            started.add(List.copyOf(args));
            return new RemoteProcess() {
                @Override public boolean isAlive() { return false; }
                @Override public StepResult await(Duration t) { return failed(node, args); }
                @Override public void close() { }
            };
        }

        @Override
        public void close() {
        }

        private static StepResult failed(ClusterSpec.Node node, List<String> args) {
            return new StepResult(node.name(), args, StepStatus.EXITED, 2, "", "railyard: it broke", Duration.ofMillis(3), "");
        }
    }

    /** A node whose checks completed, with this many GPUs, or NVIDIA GPUs on PCI that NVML does not answer for. */
    private static NodeStage.NodeResult node(String name, int gpus) throws Exception {
        String json = "{\"pciDevices\": [" + (gpus == 0 ? "{\"nvidiaGpu\": true}" : "") + "], \"gpu\": {\"nvml\": "
                + (gpus == 0 ? "{\"state\": \"absent\", \"reason\": \"libnvidia-ml.so.1: cannot open shared object file\"}" : "{\"driverVersion\": \"580.1\"}")
                + ", \"gpus\": [" + String.join(", ", java.util.Collections.nCopies(gpus, "{}")) + "]}}";
        JsonNode inventory = new ObjectMapper().readTree(json);
        return new NodeStage.NodeResult(new NodeOutcome(name, NodeStatus.COMPLETED, "", List.of(), Optional.empty()),
                Optional.of(inventory));
    }

    private void bench(ClusterSpec spec, int maxParallel, NodeStage.NodeResult... nodes) throws Exception {
        ValidateSettings settings = ValidateSettings.of(true, maxParallel, Duration.ofSeconds(30));
        BenchStage.Output out = new BenchStage.Output();
        new BenchStage(new Failing(), spec, settings, new StepSlots(maxParallel), Progress.none(), COMMAND)
                .run(List.of(nodes), out);
        judge(out.findings());
    }

    private void judge(List<Finding> findings) {
        for (Finding f : findings) {
            if (f.remediation().isEmpty()) continue;
            String what = f.id() + " " + f.severity() + " " + f.subject();
            reached.add(what);
            RunnableFixes.problem(what, f.remediation()).ifPresent(problems::add);
            if (f.remediation().lines().allMatch(l -> l.startsWith("# "))) {
                problems.add(what + ": only comments:\n" + f.remediation());
            }
            problems.addAll(Jargon.in(what, f.remediation()));
        }
    }

    @Test
    void everyBenchStageBranchGivesARunnableFix() throws Exception {
        // one node without a working driver: loopback, GPU copy and NCCL cannot run
        bench(PairFixtures.spec(1, 1, false), 2, node("n001", 0));
        // one GPU: NCCL in one process; two GPUs on one node: one process per GPU; four GPUs on two nodes, --max-parallel 2
        bench(PairFixtures.spec(1, 1, false), 2, node("n001", 1));
        bench(PairFixtures.spec(1, 1, false), 2, node("n001", 2));
        bench(PairFixtures.spec(2, 1, false), 4, node("n001", 2), node("n002", 2));
        bench(PairFixtures.spec(2, 1, false), 2, node("n001", 2), node("n002", 2));

        assertThat(reached).contains("bench.tcp.loopback WARN n001 127.0.0.1", "bench.gpu UNKNOWN n001",
                "bench.nccl.busbw UNKNOWN n001", "bench.gpu FAIL n001", "bench.storage.seq FAIL n001",
                "bench.nccl.busbw FAIL all_reduce over 1 GPUs on 1 node", "bench.nccl.busbw FAIL all_reduce over 2 GPUs on 1 node",
                "bench.nccl.busbw FAIL all_reduce over 4 GPUs on 2 nodes", "bench.nccl.busbw UNKNOWN all_reduce over 4 GPUs on 2 nodes");
        assertThat(problems).isEmpty();
    }

    @Test
    void everyPairVerdictWithAFixIsRunnable() {
        PairJudge judge = new PairJudge(PairFixtures.spec(16, 1, true), PairJudge.DEFAULT_LATENCY_K);
        List<PairResult> one = PairFixtures.allPairs("rail0", PairFixtures.names(4), PairKind.TCP_BANDWIDTH,
                (a, b) -> a.equals("n001") && b.equals("n002") ? 2.5 : 10.0);
        List<PairResult> all = PairFixtures.allPairs("rail0", PairFixtures.names(16), PairKind.RDMA_BANDWIDTH, (a, b) -> 5.0);
        judge(PairJudge.findings(judge.judgeLatest(one)));
        judge(PairJudge.findings(judge.judgeLatest(all)));
        judge(PairJudge.findings(judge.judgeLatest(List.of(
                PairFixtures.failed("rail0", "n003", "n004", PairKind.RDMA_LATENCY, "Couldn't connect to 10.0.0.4")))));
        assertThat(reached).contains("bench.tcp.bw FAIL rail0 n001<->n002", "bench.rdma.bw FAIL rail0",
                "bench.rdma.lat FAIL rail0 n003<->n004");
        assertThat(problems).isEmpty();
    }

    /** The commands are the ones validate ran, on the nodes it ran them on. */
    @Test
    void fixesRunWhatValidateRan() throws Exception {
        BenchStage.Output out = new BenchStage.Output();
        new BenchStage(new Failing(), PairFixtures.spec(2, 1, false), ValidateSettings.of(false, 2, Duration.ofSeconds(30)),
                new StepSlots(2), Progress.none(), COMMAND).run(List.of(node("n001", 2), node("n002", 2)), out);
        assertThat(fix(out, "bench.nccl.busbw")).endsWith("\nrailyard validate --spec cluster.yaml --full --max-parallel 4");

        out = new BenchStage.Output();
        new BenchStage(new Failing(), PairFixtures.spec(2, 1, false), ValidateSettings.of(false, 4, Duration.ofSeconds(30)),
                new StepSlots(4), Progress.none(), COMMAND).run(List.of(node("n001", 2), node("n002", 2)), out);
        assertThat(fix(out, "bench.nccl.busbw")).contains("# on n002 (ranks 2-3), at the same time:\n"
                + "for d in 0 1; do NCCL_DEBUG=INFO railyard bench nccl all_reduce -b 8 -e 128M --rank $((2 + d)) "
                + "--nranks 4 --device $d --rendezvous 192.168.0.1:29500 & done; wait");
        assertThat(fix(out, "bench.gpu")).isEqualTo("# on n001, the same step with its output on the terminal:\n"
                + "railyard bench gpu --size 64M --iters 5");
    }

    /**
     * Nodes written as ssh_config aliases (only this machine resolves them): the ranks meet at the first node's
     * management address, which every node can reach, in the run and in its fix alike.
     */
    @Test
    void ranksMeetAtTheManagementAddressNotAnSshAlias() throws Exception {
        ClusterSpec s = PairFixtures.spec(2, 1, false);
        List<ClusterSpec.Node> aliased = s.nodes().stream().map(n -> new ClusterSpec.Node(n.name(), "alias-" + n.name(),
                n.bmc(), n.gpus(), n.osFamily(), n.disableNetdevs(), n.ssh())).toList();
        ClusterSpec spec = new ClusterSpec(s.cluster(), s.source(), aliased, s.gpus(), s.networks(), s.expect(), s.slurm(),
                s.sshUser(), s.ssh(), s.agent());
        Failing launcher = new Failing();
        BenchStage.Output out = new BenchStage.Output();
        new BenchStage(launcher, spec, ValidateSettings.of(false, 4, Duration.ofSeconds(30)), new StepSlots(4),
                Progress.none(), COMMAND).run(List.of(node("n001", 2), node("n002", 2)), out);
        assertThat(launcher.started).filteredOn(a -> a.contains("--rendezvous")).hasSize(4)
                .allSatisfy(a -> assertThat(a.get(a.indexOf("--rendezvous") + 1)).isEqualTo("192.168.0.1:29500"));
        assertThat(fix(out, "bench.nccl.busbw")).contains("--rendezvous 192.168.0.1:29500").doesNotContain("alias-");
    }

    private static String fix(BenchStage.Output out, String id) {
        return out.findings().stream().filter(f -> f.id().equals(id) && !f.remediation().isEmpty()).findFirst()
                .orElseThrow().remediation();
    }
}
