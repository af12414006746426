package dev.railyard.cli;

import dev.railyard.apply.TreeSnapshot;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * apply --apply in its own JVM and process group, stopped by Ctrl-C (SIGINT to the group) or SIGTERM (to the JVM
 * alone) at a chosen moment: the property railyard.apply.pauseMillis slows each step so the signal lands while files
 * are staged or while they are renamed into place. Every file must be the old one or the whole new one, the command
 * must end promptly with 1 naming what it put in place, and --undo must give back exactly the tree from before.
 */
class ApplyInterruptTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";
    private static final String OLD_HOSTS = "127.0.0.1 localhost\n10.0.1.11 compute01\n";

    @TempDir
    Path dir;

    @BeforeEach
    void needsSetsid() {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
    }

    private Path root() throws IOException {
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.createDirectories(root.resolve("etc/ssh"));
        Files.writeString(root.resolve("etc/hosts"), OLD_HOSTS);
        return root;
    }

    private Process start(Path root, long pauseMillis) throws IOException {
        List<String> argv = new ArrayList<>(List.of("/usr/bin/setsid",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Drailyard.apply.pauseMillis=" + pauseMillis,
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply"));
        return new ProcessBuilder(argv).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile()).start();
    }

    private static void await(Process p, BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline || !p.isAlive()) {
                p.destroyForcibly();
                throw new AssertionError("never saw " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Sends the signal; returns the exit code and checks that it came within 5 s (a pause is 300 ms). */
    private static int signal(Process p, String signal, boolean group) throws Exception {
        try {
            long sent = System.nanoTime();
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", (group ? "-" : "") + p.pid()).inheritIO().start();
            assertThat(kill.waitFor()).isZero();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("ended within 20 s of SIG" + signal).isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent)).as("ms from SIG" + signal + " to exit").isLessThan(5000);
            return p.exitValue();
        } finally {
            p.destroyForcibly();
        }
    }

    /** The rendered files, by path under the root, as render writes them. */
    private Map<String, String> rendered() throws IOException {
        Path out = dir.resolve("rendered");
        CliRun r = CliRun.of("render", "--spec", S4, "--node", "compute01", "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        Map<String, String> files = TreeSnapshot.of(out);
        files.replaceAll((k, v) -> v.substring(v.indexOf('\n') + 1));
        return files;
    }

    private static boolean anyTemporary(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.anyMatch(p -> p.getFileName().toString().endsWith(".railyard-tmp"));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false; // a temporary renamed away while walking
        }
    }

    private static boolean manifestWritten(Path root) {
        try (Stream<Path> all = Files.walk(root.resolve("var/backups/railyard"))) {
            return all.anyMatch(p -> p.getFileName().toString().equals("MANIFEST"));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    private static TreeSet<String> dirs(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isDirectory).map(p -> root.relativize(p).toString())
                    .filter(p -> !p.startsWith("var")).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void ctrlCWhileRenamingStopsBeforeTheNextFileListsWhatWasWrittenAndUndoGivesBackTheTree() throws Exception {
        Path root = root();
        Map<String, String> rendered = rendered();
        // /etc/hosts is a managed block: on the node it is merged into the old file, whose compute01 line is retired
        String fresh = rendered.get("etc/hosts");
        rendered.put("etc/hosts", "127.0.0.1 localhost\n# railyard commented this out (the managed block sets it): 10.0.1.11 compute01\n\n"
                + fresh.substring(fresh.indexOf(dev.railyard.render.ManagedBlock.BEGIN)));
        Map<String, String> before = TreeSnapshot.of(root);
        TreeSet<String> dirsBefore = dirs(root);
        Process p = start(root, 300);
        // staging is done when the MANIFEST is there; /etc/hosts is the first file renamed
        await(p, () -> manifestWritten(root), "the backup's MANIFEST");
        await(p, () -> {
            try {
                return !Files.readString(root.resolve("etc/hosts")).equals(OLD_HOSTS);
            } catch (IOException e) {
                return false;
            }
        }, "the new /etc/hosts");
        int code = signal(p, "INT", true);
        String out = Files.readString(dir.resolve("stdout.txt"));
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertThat(code).as(out + err).isEqualTo(ExitCodes.FAIL_FINDING);

        // every rendered file is either as before (absent, or the old hosts) or the whole new one
        List<String> applied = new ArrayList<>();
        for (Map.Entry<String, String> f : rendered.entrySet()) {
            Path target = root.resolve(f.getKey());
            if (Files.exists(target) && Files.readString(target).equals(f.getValue())) applied.add("/" + f.getKey());
            else if (f.getKey().equals("etc/hosts")) assertThat(Files.readString(target)).isEqualTo(OLD_HOSTS);
            else assertThat(target).as("not applied, so not there").doesNotExist();
        }
        assertThat(applied).contains("/etc/hosts").hasSizeLessThan(rendered.size());
        assertThat(anyTemporary(root)).as("a .railyard-tmp left").isFalse();
        for (String f : applied) assertThat(out).contains("+++ " + f + "\n");
        assertThat(out).contains("stopped: " + applied.size() + " of " + rendered.size() + " file(s) to change were put in place under "
                + root + " before the stop; backup ");
        assertThat(err).contains("railyard: interrupted: " + applied.size() + " of " + rendered.size() + " file(s) were put in place")
                .contains("railyard apply --undo --root " + root).doesNotContain("Exception");

        CliRun undo = CliRun.of("apply", "--undo", "--root", root.toString());
        assertThat(undo.code()).as(undo.err()).isZero();
        assertThat(undo.out()).contains("removed " + (applied.size() - 1) + " created file(s)").contains("restored 1 file(s)");
        Map<String, String> after = TreeSnapshot.of(root);
        after.keySet().removeIf(k -> k.startsWith("var/backups/railyard"));
        assertThat(after).isEqualTo(before);
        assertThat(dirs(root)).as("directories apply created are gone again").isEqualTo(dirsBefore);
    }

    @Test
    void sigtermWhileStagingChangesNothing() throws Exception {
        Path root = root();
        Map<String, String> before = TreeSnapshot.of(root);
        TreeSet<String> dirsBefore = dirs(root);
        Process p = start(root, 300);
        await(p, () -> anyTemporary(root), "a staged temporary");
        int code = signal(p, "TERM", false);
        String err = Files.readString(dir.resolve("stderr.txt"));
        assertThat(code).as(err).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(err).contains("railyard: interrupted before any file was put in place: nothing was changed under " + root);
        assertThat(TreeSnapshot.of(root)).isEqualTo(before);
        assertThat(dirs(root)).isEqualTo(dirsBefore);
        assertThat(root.resolve("var")).doesNotExist();
    }
}
