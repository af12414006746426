package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;

import java.nio.file.Path;

/**
 * Reads a cluster spec for {@code railyard check --spec}. A seam so the check command does not depend on the YAML
 * reader's details, and tests can hand in a built spec.
 * TODO(lead): wire spec.SpecReader here (another helper writes it): CheckCommand's default loader should become
 * {@code file -> new SpecReader().read(file)}.
 */
@FunctionalInterface
public interface SpecLoader {

    /** The spec in {@code file}; throws {@link RailyardException.Usage} for a missing or malformed file. */
    ClusterSpec load(Path file);

    /** Used until spec.SpecReader is wired: --spec is a usage error with a hint, never a crash. */
    SpecLoader NOT_WIRED = file -> {
        throw new RailyardException.Usage("--spec is not supported by this build yet (no spec reader)",
                "run 'railyard check' without --spec: node-level checks judge what they can without one");
    };
}
