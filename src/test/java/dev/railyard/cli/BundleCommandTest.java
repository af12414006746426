package dev.railyard.cli;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard bundle end to end: the tarball from this build's classes and libraries, unpacked into an empty directory,
 * runs with its own runtime and no JDK on the PATH.
 */
class BundleCommandTest {

    @TempDir
    Path dir;

    static List<Path> shippedClassPath() throws Exception {
        List<Path> cp = new ArrayList<>(List.of(Path.of("target", "classes").toAbsolutePath()));
        try (Stream<Path> libs = Files.list(Path.of("target", "lib"))) {
            libs.filter(p -> p.toString().endsWith(".jar")).sorted().map(Path::toAbsolutePath).forEach(cp::add);
        }
        return cp;
    }

    @Test
    void tarballRunsOnItsOwnRuntime() throws Exception {
        List<Path> cp = shippedClassPath();
        Path out = dir.resolve("ry.tar.gz");
        StringWriter stdout = new StringWriter();
        CommandLine cl = new CommandLine(new BundleCommand(() -> cp));
        cl.setOut(new PrintWriter(stdout));
        int code = cl.execute("--out", out.toString(), "--cache-dir",
                Path.of("target", "bundle-cache").toAbsolutePath().toString());
        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(stdout.toString()).matches("wrote " + out + ": bundle [0-9a-f]{20}, [0-9.]+ MB \\(kept in .*\\)\n");
        String hash = stdout.toString().replaceAll("(?s).*bundle ([0-9a-f]{20}).*", "$1");

        Path unpacked = Files.createDirectories(dir.resolve("node"));
        CommandRunner.Result tar = CommandRunner.system().run(
                List.of("tar", "-xzf", out.toString(), "-C", unpacked.toString()), Duration.ofMinutes(1));
        assertThat(tar.ok()).as(tar.stderr()).isTrue();
        assertThat(Files.readString(unpacked.resolve("BUNDLE"))).startsWith("railyard bundle " + hash + "\n");
        assertThat(unpacked.resolve("runtime/bin/java")).isExecutable();
        assertThat(unpacked.resolve("runtime/bin/javac")).doesNotExist();

        CommandRunner.Result version = CommandRunner.system().run(
                List.of(unpacked.resolve("bin/railyard").toString(), "inventory", "--format", "json"),
                Duration.ofMinutes(1), dir, Map.of("PATH", "/usr/bin:/bin", "JAVA_HOME", "/nonexistent"));
        assertThat(version.exitCode()).as(version.stderr()).isZero();
        assertThat(version.stdout()).startsWith("{");

        // the unpacked bundle, on a machine without a JDK, passes itself on: same hash, same contents
        Path passedOn = dir.resolve("again.tar.gz");
        CommandRunner.Result rebundle = CommandRunner.system().run(
                List.of(unpacked.resolve("bin/railyard").toString(), "bundle", "--out", passedOn.toString(),
                        "--cache-dir", dir.resolve("node-cache").toString()),
                Duration.ofMinutes(1), dir, Map.of("PATH", "/usr/bin:/bin", "JAVA_HOME", "/nonexistent"));
        assertThat(rebundle.exitCode()).as(rebundle.stderr()).isZero();
        assertThat(rebundle.stdout()).startsWith("wrote " + passedOn + ": bundle " + hash + ", ");
        Path reunpacked = Files.createDirectories(dir.resolve("node2"));
        assertThat(CommandRunner.system().run(List.of("tar", "-xzf", passedOn.toString(), "-C", reunpacked.toString()),
                Duration.ofMinutes(1)).ok()).isTrue();
        assertThat(reunpacked.resolve("BUNDLE")).hasSameTextualContentAs(unpacked.resolve("BUNDLE"));
        assertThat(reunpacked.resolve("runtime/bin/java")).isExecutable();

        CommandLine second = new CommandLine(new BundleCommand(() -> cp));
        second.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        second.setErr(new PrintWriter(new StringWriter()));
        int again = second.execute("--out", out.toString(), "--cache-dir",
                Path.of("target", "bundle-cache").toAbsolutePath().toString());
        assertThat(again).as("an existing file is not overwritten").isEqualTo(ExitCodes.USAGE);
    }
}
