package dev.railyard.cli;

import dev.railyard.store.History;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** --db for the commands that read or write the run history. */
public final class HistoryDbOption {

    @Option(names = "--db", paramLabel = "PATH",
            description = "History database (default: $XDG_DATA_HOME/railyard/history.db, else ~/.local/share/railyard/history.db).")
    Path db;

    public Path path() {
        return db != null ? db : History.defaultPath();
    }
}
