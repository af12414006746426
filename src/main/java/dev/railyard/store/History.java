package dev.railyard.store;

import dev.railyard.cluster.RunRecorder;

import java.nio.file.Path;

/**
 * The run history validate writes into. Placeholder until the SQLite store lands: records nothing.
 */
public final class History {

    private History() {
    }

    /** Opens (creating if needed) the history database at {@code db}. */
    public static RunRecorder open(Path db) {
        return RunRecorder.none();
    }
}
