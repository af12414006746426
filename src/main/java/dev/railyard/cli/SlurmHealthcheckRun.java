package dev.railyard.cli;

import dev.railyard.agent.SlurmHealthcheck;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs a health check with a deadline, as NHC does: Slurm kills a HealthCheckProgram that overruns without a word,
 * so a hung read (a GPU fallen off the bus can hang NVML) drains the node with "timed out" before that happens.
 */
final class SlurmHealthcheckRun {

    private SlurmHealthcheckRun() {
    }

    static int within(Callable<Integer> check, Duration timeout, Supplier<SlurmHealthcheck> slurm, PrintWriter out)
            throws Exception {
        FutureTask<Integer> task = new FutureTask<>(check);
        Thread.ofPlatform().daemon().name("railyard-healthcheck").start(task);
        try {
            return task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            out.println(slurm.get().timedOut(timeout.toSeconds()));
            out.flush();
            return ExitCodes.FAIL_FINDING;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) throw ex;
            throw e;
        }
    }
}
