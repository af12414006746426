package dev.railyard.cli;

import dev.railyard.check.SpecLoader;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import dev.railyard.spec.SpecReader;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** --spec FILE: the cluster spec a command judges against, read once, with the same error for a missing file. */
public final class SpecOption {

    @Option(names = "--spec", paramLabel = "FILE",
            description = "Cluster spec with the expectations to judge against (railyard init writes one).")
    Path file;

    /** The spec, when --spec was given; {@code loader} reads the file (tests hand in a built spec). */
    public Optional<ClusterSpec> load(SpecLoader loader) {
        if (file == null) return Optional.empty();
        if (!Files.isRegularFile(file)) {
            throw new RailyardException.Usage("--spec " + file + " is not a file", "write one with: railyard init > cluster.yaml");
        }
        return Optional.of(loader.load(file));
    }

    public Optional<ClusterSpec> load() {
        return load(f -> new SpecReader().read(f));
    }

    public boolean given() {
        return file != null;
    }
}
