package dev.railyard.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A real program a test drives (promtool, scontrol, chromium). In CI (CI=true) a missing one fails the test, since
 * .ci/run installs it and a silent skip would hide a broken install; on a developer's machine the test is skipped
 * with the package to install.
 */
public final class RealTool {

    private RealTool() {
    }

    public static Path require(String program, String debianPackage) {
        Optional<Path> found = find(program);
        if (found.isPresent()) return found.get();
        String why = program + " is not installed (apt-get install " + debianPackage + ")";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) throw new AssertionError(why + ": .ci/run must install it");
        Assumptions.abort(why);
        throw new IllegalStateException("unreachable");
    }

    public static Optional<Path> find(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            for (String d : new String[]{dir, "/usr/sbin", "/sbin"}) {
                Path p = Path.of(d, program);
                if (Files.isExecutable(p)) return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
