package dev.railyard.agent;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.List;
import java.util.Optional;

/**
 * {@code railyard check --slurm-healthcheck}: one check run as Slurm's HealthCheckProgram, prolog or epilog, acting
 * like NHC does — a FAIL drains the node with a reason starting "railyard:" naming the first failure; a clean run
 * resumes the node only if Railyard drained it. An admin's drain is never touched.
 */
public final class SlurmHealthcheck {

    private final SlurmControl slurm;
    private final String slurmNode;

    public SlurmHealthcheck(SlurmControl slurm, String slurmNode) {
        this.slurm = slurm;
        this.slurmNode = slurmNode;
    }

    /** What was done, in one line for the log Slurm keeps of the program's output. */
    public String act(List<Finding> findings) {
        Optional<Finding> firstFail = findings.stream().filter(f -> f.severity() == Severity.FAIL).findFirst();
        SlurmControl.Outcome shown = slurm.show(slurmNode);
        if (shown.node().isEmpty()) return "railyard: cannot ask Slurm about " + slurmNode + ": " + shown.error().orElse("");
        SlurmNode n = shown.node().get();
        if (firstFail.isPresent()) {
            if (n.drainedOrDraining() || n.down()) return "railyard: " + slurmNode + " already drained/down (" + n.reason().orElse("") + "), left as is";
            Finding f = firstFail.get();
            String reason = SlurmNode.REASON_PREFIX + " " + f.id() + " " + f.subject() + ": " + f.observed();
            return slurm.drain(slurmNode, reason).error().map(e -> "railyard: drain of " + slurmNode + " failed: " + e)
                    .orElse("railyard: drained " + slurmNode + ": " + reason);
        }
        if (n.drainedByRailyard()) {
            return slurm.resume(slurmNode).error().map(e -> "railyard: resume of " + slurmNode + " failed: " + e)
                    .orElse("railyard: resumed " + slurmNode + " (no FAIL finding)");
        }
        return "railyard: " + slurmNode + " healthy, nothing to do";
    }

    /** The run did not finish in time: say so as the drain reason, as NHC does for a hung check. */
    public String timedOut(long seconds) {
        return slurm.drain(slurmNode, SlurmNode.REASON_PREFIX + " health check timed out after " + seconds + " s")
                .error().map(e -> "railyard: health check timed out; drain failed: " + e)
                .orElse("railyard: health check timed out after " + seconds + " s; drained " + slurmNode);
    }
}
