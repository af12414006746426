package dev.railyard.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code srun} argv for one step on one node of an allocation. srun execs an argv on the node, so nothing is
 * quoted; the step runs under {@link ProcessGroupWrapper} (srun hands its stdin to the task, so closing it ends the
 * step's whole process group) and under a Slurm time limit as a second line of defence.
 */
record SrunStep(String jobId, String node) implements WrappedStep.Transport {

    /** srun's own complaints, as opposed to the line it adds when a task exits non-zero or is killed. */
    private static final Pattern SRUN_ERROR = Pattern.compile("^srun: error: (.*)$", Pattern.MULTILINE);
    private static final Pattern TASK_ENDED = Pattern.compile(".*task \\d+: (Exited with exit code \\d+|Killed|"
            + "Terminated).*");

    List<String> argv(List<String> command, Duration timeout) {
        List<String> argv = new ArrayList<>(List.of("srun", "--jobid=" + jobId, "--nodes=1", "--ntasks=1",
                "-w", node, "--overlap", "--quiet", "--job-name=railyard",
                // Slurm's limit is in whole minutes: the step timeout rounded up, plus one, as a backstop only
                "--time=" + (timeout.toMinutes() + 2)));
        argv.addAll(ProcessGroupWrapper.argv(command));
        return argv;
    }

    @Override
    public String where() {
        return node;
    }

    @Override
    public Optional<String> unreachable(int exitCode, String stderr) {
        if (exitCode == 0) return Optional.empty();
        var m = SRUN_ERROR.matcher(stderr);
        while (m.find()) {
            String problem = m.group(1).strip();
            if (!TASK_ENDED.matcher(problem).matches()) return Optional.of("srun: " + problem);
        }
        return Optional.empty();
    }
}
