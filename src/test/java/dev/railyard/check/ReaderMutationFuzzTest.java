package dev.railyard.check;

import dev.railyard.collect.PciTree;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Severity;
import dev.railyard.report.FindingsJson;
import dev.railyard.report.FindingsText;
import dev.railyard.report.InventoryText;
import dev.railyard.report.InventoryTextTrees;
import dev.railyard.report.InventoryJson;
import dev.railyard.report.JsonParity;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The readers' mutation fuzzer: seeded mutants of eight real node trees, each run through every collector, every
 * node check and the text and JSON reports. The oracle, per finding (check ID + subject) against the unmutated
 * tree: a mutated attribute never turns a finding into a PASS that was not one, never leaves a PASS standing with a
 * different observation (the garbage was taken for a valid value), no run exceeds its timeout, nothing throws, no
 * value from outside the root shows up, the JSON parses and the text carries no raw terminal escape.
 *
 * <p>CI runs {@value #DEFAULT_MUTANTS} mutants; {@code scripts/fuzz-readers.sh} runs more with
 * {@code -Drailyard.fuzz.mutants=N -Drailyard.fuzz.seed=S}.
 */
class ReaderMutationFuzzTest {

    static final int DEFAULT_MUTANTS = 240;
    /** Far above a run's real time (a fraction of a second): only a hang reaches it. */
    private static final long TIMEOUT_SECONDS = 60;
    private static final ClusterSpec S1 = CheckTrees.example("s1-homelab-v100-roce.yaml");
    private static final String GPU0 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:00.0/0000:04:00.0";
    private static final String GPU1 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:01.0/0000:05:00.0";

    @TempDir
    Path dir;

    interface TreeBuilder {
        Path build(Path dir) throws IOException;
    }

    record Base(String name, TreeBuilder builder, Optional<ClusterSpec> spec) {}

    private record Run(List<Finding> findings, String text, String json) {}

    static List<Base> bases() {
        return List.of(
                new Base("gpud-h100", CheckTrees::h100, Optional.empty()),
                new Base("node_exporter-connectx3+host", d -> {
                    CheckTrees.connectx3(d);
                    CheckTrees.host(d);
                    CheckTrees.limits(d, "26232");
                    return d;
                }, Optional.empty()),
                new Base("seed000-roce-with-spec", d -> {
                    CheckTrees.seed000(d);
                    CheckTrees.limits(d, "26231");
                    return d;
                }, Optional.of(S1)),
                new Base("h200x4-capture", ReaderMutationFuzzTest::h200x4, Optional.empty()),
                new Base("pci-gpus-xid", ReaderMutationFuzzTest::pciGpus, Optional.empty()),
                new Base("procfs", InventoryTextTrees::procfs, Optional.empty()),
                new Base("nccl1573-roce", InventoryTextTrees::nccl1573Roce, Optional.empty()),
                new Base("node_exporter-pci+gpus-with-spec", ReaderMutationFuzzTest::pciGpus, Optional.of(S1)));
    }

    private static Path h200x4(Path d) throws IOException {
        return InventoryTextTrees.copyTree(Path.of("src/test/resources/trees/h200x4-capture"), d);
    }

    /** node_exporter's PCI bus with two GPUs, GPU0 trained at x8 (a WARN), and a kernel log with Xid 48/63/94. */
    private static Path pciGpus(Path d) throws IOException {
        CheckTrees.pci(d);
        new PciTree(d).gpu(GPU0, 0).gpu(GPU1, 0);
        CheckTrees.write(d, "sys/devices/" + GPU0 + "/current_link_width", "8\n");
        CheckTrees.write(d, "railyard/dmesg.txt", CheckTrees.resource("/kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt"));
        return d;
    }

    private static Run run(Path tree, Optional<ClusterSpec> spec) throws IOException {
        NodeInventory inv = CheckTrees.collect(tree);
        List<Finding> findings = CheckRunner.nodeChecks().run(new CheckInput(inv, spec, CheckTrees.NODE));
        String text = InventoryText.render(inv) + FindingsText.render(CheckTrees.NODE, findings);
        String json = Json.write(inv) + FindingsJson.render(CheckTrees.NODE, findings, List.of());
        Json.mapper().readTree(Json.write(inv));
        // inventory --format json writes by hand what Jackson writes: garbled readings included
        JsonParity.assertSameDocument(InventoryJson.write(inv), Json.write(inv), tree.toString());
        Json.mapper().readTree(FindingsJson.render(CheckTrees.NODE, findings, List.of()));
        return new Run(findings, text, json);
    }

    /**
     * Findings by check ID and subject; a GPU is the same subject by its bus ID whatever its index ("GPU1
     * (0000:05:00.0)" is "GPU0 (0000:05:00.0)" once the GPU before it is gone from the bus, as nvidia-smi numbers).
     */
    private static Map<String, Finding> byKey(List<Finding> findings) {
        Map<String, Finding> m = new LinkedHashMap<>();
        for (Finding f : findings) m.putIfAbsent(f.id() + " | " + f.subject().replaceFirst("^GPU\\d+ \\(", "GPU ("), f);
        return m;
    }

    /** What is wrong with a mutant's run against the baseline; empty when the oracle holds. */
    static List<String> judge(Run baseline, Run mutant) {
        List<String> wrong = new ArrayList<>();
        Map<String, Finding> before = byKey(baseline.findings());
        for (Map.Entry<String, Finding> e : byKey(mutant.findings()).entrySet()) {
            Finding after = e.getValue();
            if (after.severity() != Severity.PASS) continue;
            Finding was = before.get(e.getKey());
            if (was == null) {
                wrong.add("new PASS " + e.getKey() + ": " + after.observed());
            } else if (was.severity() != Severity.PASS) {
                wrong.add(was.severity() + " turned PASS " + e.getKey() + ": " + was.observed() + " -> " + after.observed());
            } else if (!sameJudgement(was, after)) {
                wrong.add("PASS kept on a changed value " + e.getKey() + ": " + was.observed() + " -> " + after.observed());
            }
        }
        if (mutant.text().contains(TreeMutation.SENTINEL) || mutant.json().contains(TreeMutation.SENTINEL)) {
            wrong.add("a value from outside the root was read");
        }
        if (mutant.text().indexOf('\u001b') >= 0) wrong.add("a raw ESC reached the text output");
        return wrong;
    }

    /**
     * The same observation, except that topo.gpu-nic.affinity names a NIC by its PCI address once its netdev entry
     * is gone: the affinity comes from the PCI tree, not from the netdev, so the PASS still stands on valid data.
     */
    private static boolean sameJudgement(Finding was, Finding after) {
        if (was.observed().equals(after.observed())) return true;
        if (!was.id().equals(GpuNicAffinityCheck.ID)) return false;
        String[] w = was.observed().split(" ");
        String[] a = after.observed().split(" ");
        return w.length == 2 && a.length == 2 && w[1].equals(a[1]) && a[0].matches("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    }

    @Test
    void mutatedAttributesNeverBecomeAPassHangOrThrow() throws Exception {
        int total = Integer.getInteger("railyard.fuzz.mutants", DEFAULT_MUTANTS);
        long seed = Long.getLong("railyard.fuzz.seed", 13L);
        List<Base> bases = bases();
        List<String> violations = new ArrayList<>();
        Map<TreeMutation.Kind, Integer> kinds = new java.util.EnumMap<>(TreeMutation.Kind.class);
        long t0 = System.nanoTime();
        int ran = 0;
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().name("fuzz-run").unstarted(r));
        try {
            for (int b = 0; b < bases.size(); b++) {
                Base base = bases.get(b);
                Path tree = base.builder().build(Files.createDirectories(dir.resolve("tree" + b)));
                Path outside = Files.createDirectories(dir.resolve("outside" + b));
                Run baseline = run(tree, base.spec());
                assertThat(judge(baseline, baseline)).as(base.name() + " baseline").isEmpty();
                List<String> candidates = TreeMutation.candidates(tree);
                Random random = new Random(seed * 31 + b);
                int mutants = total / bases.size() + (b < total % bases.size() ? 1 : 0);
                for (int i = 0; i < mutants; i++) {
                    TreeMutation m = TreeMutation.pick(tree, outside, candidates, random);
                    m.apply(random);
                    kinds.merge(m.kind(), 1, Integer::sum);
                    String where = base.name() + " #" + i + " " + m + ": ";
                    Future<Run> f = pool.submit(() -> run(tree, base.spec()));
                    try {
                        for (String w : judge(baseline, f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))) violations.add(where + w);
                    } catch (TimeoutException e) {
                        violations.add(where + "no result in " + TIMEOUT_SECONDS + " s (a read blocks)");
                        if (m.kind() == TreeMutation.Kind.FIFO) TreeMutation.unblockReaders(m.path());
                        f.cancel(true);
                        pool.shutdownNow();
                        pool = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon().name("fuzz-run").unstarted(r));
                    } catch (java.util.concurrent.ExecutionException e) {
                        StringWriter trace = new StringWriter();
                        e.getCause().printStackTrace(new PrintWriter(trace));
                        violations.add(where + "threw " + trace.toString().lines().limit(8).toList());
                    }
                    m.undo();
                    ran++;
                }
                assertThat(run(tree, base.spec()).findings()).as(base.name() + " restored").isEqualTo(baseline.findings());
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("reader mutation fuzz: %d mutants of %d trees, seed %d, %d ms, kinds %s, %d violations%n",
                ran, bases.size(), seed, (System.nanoTime() - t0) / 1_000_000, kinds, violations.size());
        assertThat(violations).as("oracle violations").isEmpty();
    }
}
