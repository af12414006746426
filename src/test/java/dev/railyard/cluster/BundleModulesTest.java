package dev.railyard.cluster;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The bundle's module list covers what jdeps finds in the classes and runtime libraries as built now. */
class BundleModulesTest {

    @Test
    void modulesCoverWhatJdepsFinds() {
        Path jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps");
        CommandRunner.Result r = CommandRunner.system().run(List.of(jdeps.toString(), "--print-module-deps",
                "--ignore-missing-deps", "--multi-release", "25", "-cp", "target/lib/*", "target/classes"),
                Duration.ofMinutes(2));
        assertThat(r.ok()).as(r.stderr()).isTrue();
        List<String> needed = Arrays.stream(r.stdout().strip().split(",")).map(String::strip).toList();
        assertThat(needed).contains("java.base");
        assertThat(BundleBuilder.MODULES).containsAll(needed);
    }
}
