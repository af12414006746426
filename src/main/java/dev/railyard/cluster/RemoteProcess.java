package dev.railyard.cluster;

import java.time.Duration;

/** A long-running remote step (a benchmark server) started by a {@link Launcher}. */
public interface RemoteProcess extends AutoCloseable {

    boolean isAlive();

    /** Waits up to {@code timeout} for it to end by itself; kills it (and its remote tree) after that. */
    StepResult await(Duration timeout) throws InterruptedException;

    /** Kills it and its remote process tree if still running; idempotent. */
    @Override
    void close();
}
