package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.IoErrors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a command will write, checked before it starts any work: a run of many minutes must not end with "cannot
 * write the report" because --out named a file or a read-only place. Each check makes what it can (the report
 * directory) and proves it writable by creating and removing a file there; root passes permission bits, not a
 * read-only mount, so only a real write tells.
 */
final class OutputChecks {

    private OutputChecks() {
    }

    /** A directory the command fills ({@code validate --out}): created now if missing. */
    static void directory(String option, Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new RailyardException.Usage(option + " " + dir + " is not a directory",
                    "name a directory for the report files (it is created if missing), e.g. " + option + " ./report");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new RailyardException.Usage(option + " " + dir + ": cannot create it: " + IoErrors.describe(e),
                    "name a directory in a writable place, e.g. " + option + " ./report");
        }
        writable(option, dir, dir);
    }

    /**
     * A file the command writes ({@code bundle --out}, {@code --db}): not a directory, in a writable directory;
     * {@code makeParent}: its directory is created now if missing (a history database's, as the history does).
     */
    static void file(String option, Path file, boolean makeParent) {
        if (Files.isDirectory(file)) {
            throw new RailyardException.Usage(option + " " + file + " is a directory", "name a file in it, e.g. "
                    + option + " " + file.resolve(file.getFileName() + ".file"));
        }
        Path parent = file.toAbsolutePath().getParent();
        if (makeParent && !Files.exists(parent)) {
            try {
                Files.createDirectories(parent);
            } catch (IOException e) {
                throw new RailyardException.Usage(option + " " + file + ": cannot create " + parent + ": "
                        + IoErrors.describe(e), "choose a writable place for " + option);
            }
        }
        if (!Files.isDirectory(parent)) {
            throw new RailyardException.Usage(option + " " + file + ": " + parent + " is not a directory",
                    "create it first: mkdir -p " + parent);
        }
        writable(option, file, parent);
    }

    private static void writable(String option, Path named, Path dir) {
        try {
            Files.delete(Files.createTempFile(dir, ".railyard-write-check-", ""));
        } catch (IOException e) {
            throw new RailyardException.Usage(option + " " + named + ": cannot write in " + dir + ": "
                    + IoErrors.describe(e), "choose a writable place for " + option);
        }
    }
}
