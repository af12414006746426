package dev.railyard.render;

import dev.railyard.platform.CommandRunner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real programs that read the rendered files. In CI (CI=true) a missing one fails the test, since .ci/run
 * installs them; on a developer machine the test is skipped with the package to install.
 */
final class RealTools {

    private static final List<String> DIRS = List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin");

    private RealTools() {
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** The tool's path; a skip (or, in CI, a failure) naming the Debian package when it is not installed. */
    static Path require(String tool, String debianPackage) {
        Optional<Path> found = DIRS.stream().map(d -> Path.of(d, tool)).filter(Files::isExecutable).findFirst();
        if (found.isEmpty()) unavailable(tool + " is not installed (apt-get install " + debianPackage + ")");
        return found.get();
    }

    /** Mounting a file system and creating network namespaces need root. */
    static void requireRoot(String why) {
        CommandRunner.Result id = CommandRunner.system().run(List.of("id", "-u"), Duration.ofSeconds(10));
        if (!id.ok() || !id.stdout().trim().equals("0")) unavailable("not root: " + why);
    }

    static void unavailable(String message) {
        if (inCi()) fail("CI=true but " + message + "; .ci/run should have provided it");
        assumeTrue(false, message);
    }
}
