package dev.railyard.bench.tcp;

/** Set from a shutdown hook (Ctrl-C) to end a run early; the run then returns what it measured so far. */
public final class StopSignal {

    private volatile boolean stopped;

    public void stop() {
        stopped = true;
    }

    public boolean stopped() {
        return stopped;
    }
}
