package dev.railyard.agent;

import dev.railyard.platform.CommandRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Slurm through {@code scontrol}, with argv lists and a timeout (a reason is one argument, never shell text).
 * Returns what happened; never throws for Slurm being down or the node unknown.
 */
public final class SlurmControl {

    /** scontrol answers in milliseconds when slurmctld is up; a hung controller must not stall sampling. */
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Slurm keeps reasons short in its tables; ours say the check, the component and the reading. */
    static final int MAX_REASON = 200;

    private final CommandRunner runner;
    private final String scontrol;
    private final Map<String, String> env;

    public SlurmControl(CommandRunner runner, String scontrol) {
        this(runner, scontrol, Map.of());
    }

    /** With extra environment for scontrol, such as SLURM_CONF for a cluster whose config is not in /etc/slurm. */
    public SlurmControl(CommandRunner runner, String scontrol, Map<String, String> env) {
        this.runner = runner;
        this.scontrol = scontrol;
        this.env = Map.copyOf(env);
    }

    /** The result of one scontrol call: the node (for show) or the error in words. */
    public record Outcome(Optional<SlurmNode> node, Optional<String> error) {
        static Outcome failed(CommandRunner.Result r) {
            String why = r.notFound() ? "scontrol not found: " + r.startError()
                    : r.timedOut() ? "scontrol timed out" : r.stderr().strip().isEmpty() ? "exit " + r.exitCode() : r.stderr().strip();
            return new Outcome(Optional.empty(), Optional.of(why));
        }
    }

    public Outcome show(String node) {
        CommandRunner.Result r = runner.run(List.of(scontrol, "show", "node", "-o", node), TIMEOUT, Path.of("."), env);
        if (!r.ok()) return Outcome.failed(r);
        Optional<SlurmNode> parsed = r.stdout().lines().map(SlurmNode::parse).flatMap(Optional::stream).findFirst();
        return parsed.isPresent() ? new Outcome(parsed, Optional.empty())
                : new Outcome(Optional.empty(), Optional.of("scontrol show node " + node + " printed no node"));
    }

    public Outcome drain(String node, String reason) {
        String r = reason.startsWith(SlurmNode.REASON_PREFIX) ? reason : SlurmNode.REASON_PREFIX + " " + reason;
        if (r.length() > MAX_REASON) r = r.substring(0, MAX_REASON - 1) + "…";
        return update(List.of(scontrol, "update", "NodeName=" + node, "State=DRAIN", "Reason=" + r.replace('\n', ' ')));
    }

    public Outcome resume(String node) {
        return update(List.of(scontrol, "update", "NodeName=" + node, "State=RESUME"));
    }

    private Outcome update(List<String> argv) {
        CommandRunner.Result r = runner.run(argv, TIMEOUT, Path.of("."), env);
        return r.ok() ? new Outcome(Optional.empty(), Optional.empty()) : Outcome.failed(r);
    }
}
