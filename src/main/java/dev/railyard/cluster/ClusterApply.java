package dev.railyard.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.railyard.apply.ApplyReport;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.NodeStatus;
import dev.railyard.model.Reading;
import dev.railyard.platform.JsonMapperFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * {@code railyard apply} on many nodes: each node runs {@code railyard apply --format json --node ITSELF} through
 * the launcher (which first brings Railyard there, as for validate), and its document comes back as an
 * {@link ApplyReport}. Every node gets a result, in the spec's order; one that could not be reached or failed is
 * named with the reason, never left out. Nodes are independent: one failing does not stop the others.
 */
public final class ClusterApply {

    /**
     * One node: how its apply ended, the exit code of its {@code railyard apply} (-1 when it did not run), why it
     * did not complete, and its report when it did.
     */
    public record NodeResult(String node, NodeStatus status, int exitCode, String detail, Optional<ApplyReport> result) {}

    /** A node on a newer build may report fields this one does not know; they are left unread. */
    private static final ObjectReader REPORT = JsonMapperFactory.shared().readerFor(ApplyReport.class)
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Launcher launcher;
    private final Duration stepTimeout;
    private final Semaphore slots;

    /** At most {@code maxParallel} nodes are prepared or applied at once. */
    public ClusterApply(Launcher launcher, Duration stepTimeout, int maxParallel) {
        if (maxParallel < 1) throw new IllegalArgumentException("maxParallel must be at least 1, got " + maxParallel);
        this.launcher = launcher;
        this.stepTimeout = stepTimeout;
        this.slots = new Semaphore(maxParallel, true);
    }

    /** Runs {@code railyard ARGS(node)} on every node; the results are in the order of {@code nodes}. */
    public List<NodeResult> run(List<ClusterSpec.Node> nodes, Function<ClusterSpec.Node, List<String>> args)
            throws InterruptedException {
        List<Future<NodeResult>> futures = new ArrayList<>();
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            for (ClusterSpec.Node node : nodes) futures.add(each.submit(() -> one(node, args.apply(node))));
            List<NodeResult> results = new ArrayList<>();
            for (Future<NodeResult> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof InterruptedException ie) throw ie;
                    throw new IllegalStateException(e.getCause());
                }
            }
            return results;
        } catch (InterruptedException e) {
            futures.forEach(f -> f.cancel(true));
            throw e;
        }
    }

    private NodeResult one(ClusterSpec.Node node, List<String> args) throws InterruptedException {
        slots.acquire();
        try {
            StepResult prepared = launcher.prepare(node, stepTimeout);
            if (!RunningSteps.prepared(prepared)) return notRun(node, prepared, "prepare");
            StepResult ran = launcher.run(node, args, stepTimeout);
            if (ran.status() != StepStatus.EXITED) return notRun(node, ran, "apply");
            if (ran.exitCode() != 0) {
                // its report when it printed one (files written before a follow-up failed or a Ctrl-C): shown, and
                // counted for the undo command
                return new NodeResult(node.name(), NodeStatus.FAILED, ran.exitCode(), "apply exited " + ran.exitCode()
                        + said(ran).map(s -> ": " + s).orElse(""), read(node, ran).result());
            }
            return read(node, ran);
        } finally {
            slots.release();
        }
    }

    private static NodeResult read(ClusterSpec.Node node, StepResult ran) {
        Reading<JsonNode> json = StepJson.parse(ran.stdout());
        if (!(json instanceof Reading.Present<JsonNode>(JsonNode doc))) {
            return new NodeResult(node.name(), NodeStatus.FAILED, 0, "apply printed no report: " + json.describe(), Optional.empty());
        }
        int schema = doc.path("schemaVersion").asInt(-1);
        if (schema != 1) {
            return new NodeResult(node.name(), NodeStatus.FAILED, 0, "the node's railyard writes schemaVersion " + schema
                    + ", this one reads 1: run the same version on both", Optional.empty());
        }
        try {
            return new NodeResult(node.name(), NodeStatus.COMPLETED, 0, "", Optional.of(REPORT.treeToValue(doc, ApplyReport.class)));
        } catch (Exception e) {
            return new NodeResult(node.name(), NodeStatus.FAILED, 0, "apply's report is unreadable: "
                    + e.getMessage().lines().findFirst().orElse(""), Optional.empty());
        }
    }

    /** A step that did not get to exit by itself: which one, how it ended, and what it said last. */
    private static NodeResult notRun(ClusterSpec.Node node, StepResult r, String step) {
        NodeStatus status = switch (r.status()) {
            case UNREACHABLE -> NodeStatus.UNREACHABLE;
            case TIMED_OUT -> NodeStatus.TIMED_OUT;
            case INTERRUPTED -> NodeStatus.NOT_RUN;
            case EXITED, LAUNCH_FAILED -> NodeStatus.FAILED;
        };
        String why = r.status() == StepStatus.EXITED ? "exited " + r.exitCode() : r.detail();
        Optional<String> said = said(r).filter(s -> !why.contains(s));
        return new NodeResult(node.name(), status, -1, step + ": " + why + said.map(s -> " (" + s + ")").orElse(""),
                Optional.empty());
    }

    /** Railyard's own error and hint lines when it printed any, else the last line on stderr. */
    private static Optional<String> said(StepResult r) {
        List<String> lines = r.stderr().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        List<String> own = lines.stream().filter(l -> l.startsWith("railyard:") || l.startsWith("hint:")).toList();
        if (!own.isEmpty()) return Optional.of(String.join("; ", own));
        return lines.isEmpty() ? Optional.empty() : Optional.of(lines.getLast());
    }
}
