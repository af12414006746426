package dev.railyard.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ./railyard launcher, run for real by bash: found through a symlink in another directory (as when linked into
 * ~/bin), in a checkout that was never built, on a PATH without Maven.
 */
class LauncherScriptTest {

    @TempDir
    Path dir;

    @Test
    void withoutMavenTheFirstRunNamesItAndExitsThree() throws Exception {
        Path checkout = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(Path.of("railyard"), checkout.resolve("railyard"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.createDirectories(checkout.resolve("scripts"));
        Files.copy(Path.of("scripts/find-java.sh"), checkout.resolve("scripts/find-java.sh"));
        Files.createDirectories(checkout.resolve("src/main"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        // a PATH with the few programs the launcher uses, and no mvn
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : List.of("bash", "dirname", "readlink", "find", "head", "grep", "rm")) {
            Path real = List.of(Path.of("/usr/bin", tool), Path.of("/bin", tool)).stream().filter(Files::isExecutable)
                    .findFirst().orElseThrow(() -> new IllegalStateException(tool + " not found"));
            Files.createSymbolicLink(bin.resolve(tool), real);
        }
        Files.createSymbolicLink(bin.resolve("railyard"), checkout.resolve("railyard"));

        ProcessBuilder pb = new ProcessBuilder(bin.resolve("bash").toString(), "-c", "railyard --version")
                .directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", bin.toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(3);
        assertThat(out).contains("Maven (mvn) is needed to build Railyard").contains("apt-get install maven")
                .doesNotContain("No such file");
    }
}
