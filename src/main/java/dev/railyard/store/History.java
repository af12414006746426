package dev.railyard.store;

import dev.railyard.cluster.RunRecorder;

import java.nio.file.Path;
import java.util.Map;

/**
 * The run history: an SQLite file that validate records into as results arrive ({@link #open}) and that `history`
 * and `compare` read ({@link #read}). Default place: $XDG_DATA_HOME/railyard/history.db, else
 * ~/.local/share/railyard/history.db.
 */
public final class History {

    private History() {
    }

    /** Opens (creating if needed, migrating if older) the history database at {@code db}. */
    public static RunRecorder open(Path db) {
        return new SqliteHistory(HistoryDatabase.open(db, true));
    }

    /** Opens an existing history database for reading; a usage error when there is none. */
    public static HistoryReader read(Path db) {
        return new HistoryReader(HistoryDatabase.open(db, false));
    }

    public static Path defaultPath() {
        return defaultPath(System.getenv(), System.getProperty("user.home"));
    }

    /** The XDG base directory rule: a relative or empty $XDG_DATA_HOME is ignored, as the spec says. */
    static Path defaultPath(Map<String, String> env, String home) {
        String xdg = env.get("XDG_DATA_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
                ? Path.of(xdg) : Path.of(home, ".local", "share");
        return base.resolve("railyard").resolve("history.db");
    }
}
