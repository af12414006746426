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
        Path checkout = checkout();
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

    /** A jar rebuilt by hand (mvn package) after the AOT cache was trained: the JVM would ignore the cache silently. */
    @Test
    void anAotCacheOlderThanTheJarIsTrainedAgain() throws Exception {
        Path checkout = checkout();
        Path target = Files.createDirectories(checkout.resolve("target"));
        Path jar = railyardJar(target);
        Path aot = Files.writeString(target.resolve("railyard.aot"), "stale");
        var old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        for (Path p : List.of(checkout.resolve("pom.xml"), checkout.resolve("src/main"), aot)) Files.setLastModifiedTime(p, old);

        ProcessBuilder pb = new ProcessBuilder("bash", checkout.resolve("railyard").toString(), "--version")
                .directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(Files.getLastModifiedTime(aot).compareTo(Files.getLastModifiedTime(jar))).isPositive();
        assertThat(Files.size(aot)).as("a trained cache, not the stale file").isGreaterThan(1_000_000);
    }

    /**
     * The first run after a pull builds the jar; what is piped into it is the command's, not the build's (the real
     * build's exec-maven-plugin pumps stdin into the program it runs, as the stand-in mvn here reads it).
     */
    @Test
    void theBuildDoesNotEatWhatIsPipedIntoTheCommand() throws Exception {
        Path checkout = checkout();
        Path built = railyardJar(Files.createDirectories(dir.resolve("built")));
        Path bin = Files.createDirectories(dir.resolve("mvnbin"));
        Path mvn = Files.writeString(bin.resolve("mvn"), """
                #!/bin/bash
                cat >/dev/null
                mkdir -p target && cp "%s" target/railyard.jar && cp -r "%s" target/lib
                """.formatted(built, built.getParent().resolve("lib")));
        mvn.toFile().setExecutable(true);

        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "printf 'not a tool log\\n' | \"$0\" diagnose -",
                checkout.resolve("railyard").toString()).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).contains("railyard: building").doesNotContain("stdin is empty").contains("not recognised");
    }

    /** A checkout with the launcher and what it reads, never built: no target/. */
    private Path checkout() throws java.io.IOException {
        Path checkout = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(Path.of("railyard"), checkout.resolve("railyard"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.createDirectories(checkout.resolve("scripts"));
        Files.copy(Path.of("scripts/find-java.sh"), checkout.resolve("scripts/find-java.sh"));
        Files.createDirectories(checkout.resolve("src/main"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        return checkout;
    }

    /**
     * target/railyard.jar as the build makes it, from target/classes and target/lib: tests run before the package
     * phase, so on a clean checkout there is no jar yet.
     */
    private static Path railyardJar(Path target) throws java.io.IOException {
        Path lib = Files.createDirectories(target.resolve("lib"));
        List<String> classPath = new java.util.ArrayList<>();
        try (var jars = Files.list(Path.of("target/lib"))) {
            for (Path j : jars.sorted().toList()) {
                Files.copy(j, lib.resolve(j.getFileName()));
                classPath.add("lib/" + j.getFileName());
            }
        }
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, "dev.railyard.cli.Main");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        manifest.getMainAttributes().putValue("Enable-Native-Access", "ALL-UNNAMED");
        Path jar = target.resolve("railyard.jar");
        Path classes = Path.of("target/classes");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), manifest);
             var files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
