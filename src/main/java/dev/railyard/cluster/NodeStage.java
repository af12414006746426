package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.NodeFacts;
import dev.railyard.model.NodeOutcome;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Reading;
import dev.railyard.platform.Clock;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One node's part before any pair test: prepare it, take its inventory, run its checks. Each step goes through the
 * launcher and holds one slot of the fan-out. A node that fails a step gets an outcome saying which and why; it is
 * never dropped.
 */
final class NodeStage {

    /** What a node gave: its outcome for the report, and the inventory the later stages read (GPU count). */
    record NodeResult(NodeOutcome outcome, Optional<JsonNode> inventory) {
        boolean completed() {
            return outcome.status() == NodeStatus.COMPLETED;
        }

        int gpuCount() {
            return inventory.map(i -> i.path("gpu").path("gpus").size()).orElse(0);
        }
    }

    static final int STEPS_PER_NODE = 3;

    private final Launcher launcher;
    private final ValidateSettings settings;
    private final StepSlots slots;
    private final Optional<String> specBase64;
    private final Progress progress;
    private final Clock clock;

    NodeStage(Launcher launcher, ValidateSettings settings, StepSlots slots, Optional<String> specBase64, Progress progress,
              Clock clock) {
        this.clock = clock;
        this.launcher = launcher;
        this.settings = settings;
        this.slots = slots;
        this.specBase64 = specBase64;
        this.progress = progress;
    }

    NodeResult run(ClusterSpec.Node node) throws InterruptedException {
        StepResult prepared;
        try (StepSlots.Held h = slots.acquire(1)) {
            prepared = launcher.prepare(node, settings.stepTimeout());
        }
        progress.stepDone(node.name() + ": prepared");
        if (prepared.status() != StepStatus.EXITED || prepared.exitCode() != 0) {
            progress.addSteps(-(STEPS_PER_NODE - 1));
            return failed(node, prepared, "prepare");
        }
        // inventory and check are independent (check reads the node itself): run them side by side
        List<String> check = NodeArgv.write(new NodeRequest.Check(node.name(), specBase64));
        StepResult inv;
        StepResult chk;
        try (ExecutorService both = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<StepResult> checked = both.submit(() -> step(node, check));
            inv = step(node, NodeArgv.write(new NodeRequest.Inventory()));
            progress.stepDone(node.name() + ": inventory");
            try {
                chk = checked.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof InterruptedException ie) throw ie;
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                checked.cancel(true);
                throw e;
            }
            progress.stepDone(node.name() + ": checks");
        }
        // prepared means reached: a transport failing after that lost the node
        for (StepResult r : List.of(inv, chk)) {
            if (r.status() == StepStatus.UNREACHABLE) {
                LostNodes.Lost l = new LostNodes.Lost(node.name(), clock.now(), r.detail());
                return new NodeResult(new NodeOutcome(node.name(), NodeStatus.LOST, l.describe() + " (during "
                        + (r == inv ? "inventory" : "check") + ")", List.of(), Optional.empty()), Optional.empty());
            }
        }
        if (!inv.completed()) return failed(node, inv, "inventory");
        Reading<JsonNode> json = StepJson.parse(inv.stdout());
        if (!(json instanceof Reading.Present<JsonNode>(JsonNode inventory))) {
            return new NodeResult(new NodeOutcome(node.name(), NodeStatus.FAILED, "inventory: " + json.describe(), List.of(),
                    Optional.empty()), Optional.empty());
        }
        NodeFacts facts = NodeFactsReader.read(node.name(), inventory);
        if (!chk.completed()) {
            NodeOutcome o = failed(node, chk, "check").outcome();
            return new NodeResult(new NodeOutcome(o.node(), o.status(), o.detail(), List.of(), Optional.of(facts)),
                    Optional.of(inventory));
        }
        List<Finding> findings = StepJson.parse(chk.stdout()).optional().map(StepJson::findings).orElse(List.of());
        return new NodeResult(new NodeOutcome(node.name(), NodeStatus.COMPLETED, "", findings, Optional.of(facts)),
                Optional.of(inventory));
    }

    private StepResult step(ClusterSpec.Node node, List<String> args) throws InterruptedException {
        try (StepSlots.Held h = slots.acquire(1)) {
            return launcher.run(node, args, settings.stepTimeout());
        }
    }

    /** A node whose step did not complete: which step, how it ended, and the last thing it said. */
    static NodeResult failed(ClusterSpec.Node node, StepResult r, String step) {
        NodeStatus status = switch (r.status()) {
            case UNREACHABLE -> NodeStatus.UNREACHABLE;
            case TIMED_OUT -> NodeStatus.TIMED_OUT;
            case INTERRUPTED -> NodeStatus.NOT_RUN;
            case EXITED, LAUNCH_FAILED -> NodeStatus.FAILED;
        };
        String said = r.stderr().lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b).orElse("");
        String detail = step + ": " + (r.status() == StepStatus.EXITED ? "exited " + r.exitCode() : r.detail())
                + (said.isEmpty() || r.detail().contains(said) ? "" : " (" + said + ")");
        return new NodeResult(new NodeOutcome(node.name(), status, detail, List.of(), Optional.empty()), Optional.empty());
    }
}
