package dev.railyard.agent;

import dev.railyard.model.Severity;
import dev.railyard.store.History;
import dev.railyard.store.HistoryReader;
import dev.railyard.store.RunSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Optional;

/**
 * The last scheduled active check of this node, as its history database holds it: the weekly {@code validate
 * --quick} that render's timer (or the maintenance reservation's batch script) runs records into {@link #PATH},
 * which nothing else writes, so the newest run there is the last active check. Read again only when the file
 * changed (its modification time or size), so a sample costs one stat; an unreadable database keeps the last answer.
 */
public final class ActiveCheckHistory {

    /** Where render's active-check service and batch script record (their {@code --db}), under the host root. */
    public static final String PATH = "var/lib/railyard/history.db";

    /** The newest run: when it started, when it ended (empty while running, or killed), its verdict when it ended. */
    public record LastActiveCheck(String runId, Instant startedAt, Optional<Instant> finishedAt,
                                  Optional<Severity> verdict) {}

    private final Path db;
    private FileKey seen;
    private Optional<LastActiveCheck> last = Optional.empty();

    private record FileKey(long modifiedMillis, long size) {}

    public ActiveCheckHistory(Path db) {
        this.db = db;
    }

    /** No active check yet when the database does not exist. */
    public synchronized Optional<LastActiveCheck> last() {
        FileKey key;
        try {
            BasicFileAttributes a = Files.readAttributes(db, BasicFileAttributes.class);
            if (!a.isRegularFile()) return Optional.empty();
            key = new FileKey(a.lastModifiedTime().toMillis(), a.size());
        } catch (IOException e) {
            seen = null;
            last = Optional.empty();
            return last;
        }
        if (key.equals(seen)) return last;
        try (HistoryReader r = History.read(db)) {
            last = r.runs().stream().findFirst().map(s -> new LastActiveCheck(s.id(), s.startedAt(), s.finishedAt(),
                    s.verdict()));
            seen = key;
        } catch (RuntimeException e) {
            // being written by the check itself, or not a history database: the last answer stands until it reads
        }
        return last;
    }
}
