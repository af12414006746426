package dev.railyard.cluster;

import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * validate --burn: {@code railyard burn --duration D --format json} on every node with GPUs, all at once, before any
 * fabric test. Every node at full GPU power together is the load a PSU or a breaker must carry, and a GPU that
 * throttles or corrupts under heat is found before the fabric's figures are blamed on it. The verdicts are burn's
 * own findings (its JSON's "findings", the shape every railyard command prints), with the node in their subject;
 * a node where burn could not run or said nothing is validate.burn, never a PASS.
 */
final class BurnStage {

    static final String ID = CheckId.VALIDATE_BURN.id();

    private final Launcher launcher;
    private final ClusterSpec spec;
    private final ValidateSettings settings;
    private final StepSlots slots;
    private final Progress progress;

    BurnStage(Launcher launcher, ClusterSpec spec, ValidateSettings settings, StepSlots slots, Progress progress) {
        this.launcher = launcher;
        this.spec = spec;
        this.settings = settings;
        this.slots = slots;
        this.progress = progress;
    }

    /** The burn's command line on a node. */
    static List<String> args(Duration duration) {
        return NodeArgv.write(new NodeRequest.Burn(duration));
    }

    void run(List<NodeStage.NodeResult> nodes, Duration duration, BenchStage.Output out) throws InterruptedException {
        List<NodeStage.NodeResult> withGpus = new ArrayList<>();
        for (NodeStage.NodeResult n : nodes) {
            if (!n.completed()) continue;
            if (n.gpuCount() > 0) withGpus.add(n);
            else out.findings().add(Finding.of(ID, Severity.INFO, n.outcome().node(), "no GPU: burn skipped",
                    "GPUs to load", ""));
        }
        if (withGpus.isEmpty()) return;
        progress.phase("burn: every GPU of " + withGpus.size() + " node" + (withGpus.size() == 1 ? "" : "s")
                + " at full load for " + duration.toSeconds() + " s");
        // the burn itself lasts the whole window: the step limit is on top of it
        Duration limit = duration.plus(settings.stepTimeout());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<List<Finding>>> running = new ArrayList<>();
            for (NodeStage.NodeResult n : withGpus) {
                ClusterSpec.Node node = spec.node(n.outcome().node()).orElseThrow();
                running.add(pool.submit(() -> {
                    StepResult r;
                    try (StepSlots.Held h = slots.acquire(1)) {
                        r = launcher.run(node, args(duration), limit);
                    }
                    progress.stepDone(node.name() + ": burn");
                    return findings(node.name(), duration, r);
                }));
            }
            try {
                for (Future<List<Finding>> f : running) out.findings().addAll(f.get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof InterruptedException ie) throw ie;
                throw new IllegalStateException("burn stage failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                running.forEach(f -> f.cancel(true));
                throw e;
            }
        }
    }

    /** burn's verdicts from one node's step: exit 0 or 1 with findings in its JSON; anything else says why not. */
    static List<Finding> findings(String node, Duration duration, StepResult r) {
        String byHand = "railyard burn --duration " + duration.toSeconds() + "s";
        boolean judged = r.status() == StepStatus.EXITED && (r.exitCode() == 0 || r.exitCode() == 1);
        if (judged) {
            List<Finding> out = new ArrayList<>();
            StepJson.parse(r.stdout()).optional().map(StepJson::findings).orElse(List.of()).forEach(f -> out.add(
                    Finding.of(f.id(), f.severity(), node + " " + f.subject(), f.observed(), f.expected(), f.remediation())));
            if (!out.isEmpty()) return out;
        }
        String said = r.stderr().lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b).orElse("");
        String what = r.status() == StepStatus.EXITED ? "exited " + r.exitCode() : r.status().name().toLowerCase(Locale.ROOT)
                + ": " + r.detail();
        Severity severity = judged || r.status() == StepStatus.EXITED && (r.exitCode() == 2 || r.exitCode() == 3)
                ? Severity.UNKNOWN : Severity.FAIL;
        String observed = judged ? "burn gave no findings" : r.status() == StepStatus.EXITED && r.exitCode() == 2
                ? "this node's railyard has no burn command (" + what + (said.isEmpty() ? "" : ", " + said) + ")"
                : "burn " + what + (said.isEmpty() ? "" : " (" + said + ")");
        return List.of(Finding.of(ID, severity, node, observed, "a burn verdict for every GPU", Fix.lines(
                Fix.note("on " + node + ", the burn with its progress on the terminal (install the same railyard "
                        + "version as this machine's if it has no burn):"), byHand)));
    }
}
