package dev.railyard.agent;

import dev.railyard.check.Fix;
import dev.railyard.check.ShellWord;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.Severity;

/**
 * The fixes the detectors give, as lines a root shell on this node runs as they are: what shows the evidence for the
 * netdev, port or GPU the finding names, a drain where the component is UNHEALTHY (what the agent itself does with
 * Slurm), and "# " lines for what only hands can do. Names read from sysfs or the kernel log are shell-quoted.
 */
final class DetectorFixes {

    private DetectorFixes() {
    }

    /**
     * The rule's verdict as the agent gives it: a FAIL makes the component UNHEALTHY, so its fix ends with the drain
     * the agent itself does. The rule's fix comes first and unchanged, as check and diagnose give it.
     */
    static Verdict withDrain(Verdict v, String reason) {
        if (v.severity() != Severity.FAIL) return v;
        return new Verdict(v.id(), v.severity(), v.observed(), v.expected(),
                Fix.lines(v.fix(), drain(reason)));
    }

    /**
     * Takes the node out of Slurm's scheduling, with a reason an admin reads in sinfo. Not "railyard:": that prefix
     * marks the agent's own drains, which it lifts when healthy again; an admin's drain is the admin's to lift.
     */
    static String drain(String reason) {
        return "scontrol update nodename=$(hostname -s) state=drain reason=" + ShellWord.of(reason);
    }
}
