package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs Railyard on nodes as Slurm job steps: {@code srun -w NODE} inside the allocation this process runs in
 * (SLURM_JOB_ID set), or inside one it asks for itself with {@code salloc --no-shell} and cancels on close. Node
 * names in the spec are Slurm's node names. Railyard is either at a path every node sees (a shared directory) or a
 * bundle spread with {@code sbcast} and unpacked into each node's cache.
 */
public final class SlurmLauncher implements Launcher {

    private static final Pattern GRANTED = Pattern.compile("Granted job allocation (\\d+)");
    private static final Duration SALLOC_WAIT = Duration.ofSeconds(60);
    /** Removing the sbcast copy is a courtesy at close: it must not hold up the end of a run (or a Ctrl-C) long. */
    private static final Duration REMOVE_WAIT = Duration.ofSeconds(20);

    private final ClusterSpec spec;
    private final RemoteRailyard railyard;
    private final Map<String, String> environment;
    private final CommandRunner runner;
    private final boolean ownAllocation;
    private volatile String jobId;
    /** Where sbcast put each bundle (by hash) on every node of the allocation; removed at close. */
    private final Map<String, String> broadcast = new ConcurrentHashMap<>();
    private final RemoteSteps steps = new RemoteSteps(new RemoteSteps.Transport() {
        @Override
        public WrappedStep start(ClusterSpec.Node node, List<String> shownArgs, List<String> argv, Duration timeout)
                throws IOException {
            SrunStep srun = new SrunStep(jobId, node.name());
            return WrappedStep.startInOwnSession(node.name(), shownArgs, srun, srun.argv(argv, timeout),
                    extraEnvironment());
        }

        @Override
        public String cannotStart(IOException e) {
            return "could not start srun: " + e.getMessage() + " (install the Slurm client, slurm-client)";
        }
    });
    /** The name of the allocation this launcher asks for: its own, so that one it lost track of can be cancelled. */
    private final String jobName = "railyard-validate-" + Integer.toHexString(ThreadLocalRandom.current().nextInt());

    /** salloc or sbcast was interrupted (Ctrl-C): the node is not judged, the run is ending. */
    private static final class Interrupted extends RuntimeException {
        Interrupted() {
            super(null, null, false, false);
        }
    }

    /**
     * {@code environment} is the whole environment Slurm's commands get (System.getenv() for a user; tests add
     * SLURM_CONF). With SLURM_JOB_ID in it, steps run in that allocation; without, the first step asks for one.
     */
    public SlurmLauncher(ClusterSpec spec, RemoteRailyard railyard, Map<String, String> environment,
                         CommandRunner runner) {
        this.spec = spec;
        this.railyard = railyard;
        this.environment = Map.copyOf(environment);
        this.runner = runner;
        this.jobId = environment.get("SLURM_JOB_ID");
        this.ownAllocation = jobId == null;
    }

    @Override
    public String name() {
        return "slurm";
    }

    /** The allocation steps run in: this process's, or one asked for with salloc over every node of the spec. */
    synchronized String allocation() {
        if (jobId != null) return jobId;
        if (Thread.currentThread().isInterrupted()) throw new Interrupted();
        List<String> nodes = spec.nodes().stream().map(ClusterSpec.Node::name).toList();
        // --no-kill: a node that fails mid-run is that node's loss (LOST), not the end of every other node's steps
        List<String> argv = List.of("salloc", "--no-shell", "--no-kill", "--nodes=" + nodes.size(), "-w", String.join(",", nodes),
                "--job-name=" + jobName, "--immediate=" + SALLOC_WAIT.toSeconds());
        CommandRunner.Result r = slurm(argv, SALLOC_WAIT.plusSeconds(30));
        Matcher m = GRANTED.matcher(r.stderr() + r.stdout());
        if (r.interruptedAtStart()) throw new Interrupted(); // Ctrl-C as salloc was being started: it never ran
        if (Thread.interrupted()) {
            // Ctrl-C: the runner killed salloc, whose request slurmctld may have had or granted already; the flag is
            // cleared so that scancel is not killed at once in its turn
            slurm(List.of("scancel", "--name=" + jobName), Duration.ofSeconds(30));
            throw new Interrupted();
        }
        if (!r.ok() || !m.find()) {
            if (r.timedOut()) slurm(List.of("scancel", "--name=" + jobName), Duration.ofSeconds(30));
            throw new IllegalStateException(r.notFound() ? "cannot run salloc: " + r.startError()
                    + " (install the Slurm client, slurm-client)" : "salloc got no allocation: " + r.stderr().strip());
        }
        jobId = m.group(1);
        return jobId;
    }

    @Override
    public StepResult prepare(ClusterSpec.Node node, Duration timeout) throws InterruptedException {
        String job;
        try {
            job = allocation();
        } catch (Interrupted e) {
            throw new InterruptedException("interrupted while salloc asked for the allocation");
        } catch (IllegalStateException e) {
            return new StepResult(node.name(), List.of(), StepStatus.UNREACHABLE, -1, "", "", Duration.ZERO,
                    e.getMessage());
        }
        return switch (railyard) {
            case RemoteRailyard.AtPath p -> {
                steps.preparedAt(node, List.of(p.path()));
                yield steps.execute(node, List.of(), List.of(p.path(), "--version"), timeout);
            }
            case RemoteRailyard.FromBundle b -> steps.prepareBundle(node, b.bundles(), timeout,
                    (n, bundle, dir, left) -> copy(n, job, bundle, dir, timeout), " (sbcast)");
        };
    }

    /** sbcast once to the allocation, then unpacked into the node's cache by a step on that node. */
    private StepResult copy(ClusterSpec.Node node, String job, Bundle bundle, String dir, Duration timeout)
            throws InterruptedException {
        String copy;
        try {
            copy = broadcast(job, bundle, timeout);
        } catch (Interrupted e) {
            throw new InterruptedException("interrupted while sbcast copied the bundle");
        } catch (IllegalStateException e) {
            return new StepResult(node.name(), List.of(), StepStatus.LAUNCH_FAILED, -1, "", "", Duration.ZERO,
                    e.getMessage());
        }
        StepResult unpack = steps.execute(node, List.of(), NodeCache.unpack(dir, copy), timeout);
        return unpack.status() == StepStatus.EXITED && unpack.exitCode() != 0
                ? RunningSteps.failed(node, unpack, "unpacking the bundle on " + node.name() + " failed: "
                        + unpack.stderr().strip())
                : unpack;
    }

    /**
     * sbcast copies to every node of the allocation at once, so it runs once per launcher. The file name is this
     * launcher's own (hash and a random part): close removes it, which must not pull the tarball from under another
     * Railyard of the same version unpacking in the same allocation.
     */
    private synchronized String broadcast(String job, Bundle bundle, Duration timeout) {
        String done = broadcast.get(bundle.hash());
        if (done != null) return done;
        String target = "/tmp/railyard-bundle-" + bundle.hash() + "-"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt()) + ".tar.gz";
        CommandRunner.Result r = slurm(List.of("sbcast", "--jobid=" + job, "--force",
                bundle.tarball().toString(), target), timeout);
        if (Thread.currentThread().isInterrupted() || r.interruptedAtStart()) throw new Interrupted(); // Ctrl-C
        if (!r.ok()) {
            throw new IllegalStateException("sbcast of the bundle failed: "
                    + (r.notFound() ? r.startError() : r.stderr().strip()));
        }
        broadcast.put(bundle.hash(), target);
        return target;
    }

    /**
     * Removes the sbcast copy from every node of the allocation (sbcast wrote it to all of them, not only to the
     * nodes of the spec), one task per node; the nodes unpacked it into their caches already. Best effort: a node
     * that cannot run the step keeps the file in its /tmp, and nothing here fails the run.
     */
    private void removeBroadcast(String job) {
        List<String> targets = List.copyOf(broadcast.values());
        broadcast.clear();
        if (targets.isEmpty() || job == null) return;
        CommandRunner.Result nodes = slurm(List.of("squeue", "-h", "-j", job, "-o", "%N"), REMOVE_WAIT);
        String hostlist = nodes.stdout().strip();
        if (!nodes.ok() || hostlist.isEmpty()) return;
        slurm(concat(List.of("srun", "--jobid=" + job, "-w", hostlist, "--ntasks-per-node=1", "--overlap", "--quiet",
                "--job-name=railyard-cleanup", "--time=1", "rm", "-f"), targets), REMOVE_WAIT);
    }

    @Override
    public StepResult run(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException {
        return steps.run(node, railyardArgs, timeout, this::prepare);
    }

    @Override
    public RemoteProcess start(ClusterSpec.Node node, List<String> railyardArgs, Duration timeout)
            throws InterruptedException {
        return steps.start(node, railyardArgs, timeout, this::prepare);
    }

    /**
     * Runs one of Slurm's commands in a session of its own, so that Ctrl-C (SIGINT to the terminal's foreground
     * process group) and a kill of validate's group reach validate alone: salloc gives up at SIGINT, and the run's
     * end (or validate's shutdown on Ctrl-C) is what ends these.
     */
    private CommandRunner.Result slurm(List<String> argv, Duration timeout) {
        List<String> detached;
        try {
            detached = TerminalSignals.ownSession(argv);
        } catch (IOException e) {
            return new CommandRunner.Result(argv, -1, "", "", false, "not found");
        }
        return runner.run(detached, timeout, Path.of("."), extraEnvironment());
    }

    /** The environment Slurm's commands run with (put over this process's own, which it normally equals). */
    private Map<String, String> extraEnvironment() {
        return environment;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * Stops every step still running, removes the sbcast copy of the bundle from the nodes, and gives back the
     * allocation this launcher asked for.
     */
    @Override
    public void close() {
        steps.closeAll();
        String job = jobId;
        removeBroadcast(job);
        if (ownAllocation && job != null) {
            slurm(List.of("scancel", job), Duration.ofSeconds(30));
            jobId = null;
        }
    }
}
