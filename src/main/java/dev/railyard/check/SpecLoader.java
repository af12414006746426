package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;

import java.nio.file.Path;

/**
 * Reads a cluster spec for {@code railyard check --spec}. A seam so the check command does not depend on the YAML
 * reader's details, and tests can hand in a built spec.
 */
@FunctionalInterface
public interface SpecLoader {

    /** The spec in {@code file}; throws {@link RailyardException.Usage} for a missing or malformed file. */
    ClusterSpec load(Path file);

}
