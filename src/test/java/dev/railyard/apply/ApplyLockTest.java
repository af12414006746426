package dev.railyard.apply;

import dev.railyard.cli.CliRun;
import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One apply or undo at a time on a root, across processes; the root itself never holds the lock. */
class ApplyLockTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";

    @Test
    void aSecondLockOnTheSameRootIsRefusedWithTheHolderUntilTheFirstIsClosed(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Path locks = Files.createDirectories(dir.resolve("locks"));
        try (ApplyLock first = ApplyLock.acquire(root, locks)) {
            assertThatThrownBy(() -> ApplyLock.acquire(root, locks))
                    .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class, e -> {
                        assertThat(e.exitCode()).isEqualTo(3);
                        assertThat(e.getMessage()).startsWith("another railyard apply is changing " + root + " (pid "
                                + ProcessHandle.current().pid() + " since ");
                    });
        }
        ApplyLock.acquire(root, locks).close();
    }

    @Test
    void everySpellingOfARootIsOneLockAndOtherRootsAreOthers(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), root);
        Path locks = dir.resolve("locks");
        assertThat(ApplyLock.lockFile(link, locks)).isEqualTo(ApplyLock.lockFile(root, locks))
                .isEqualTo(ApplyLock.lockFile(dir.resolve("root/../root"), locks))
                .isNotEqualTo(ApplyLock.lockFile(dir, locks));
    }

    @Test
    void anApplyOrUndoWhileAnotherProcessHoldsTheRootChangesNothingAndExits3(@TempDir Path root) throws Exception {
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/hosts"), "127.0.0.1 localhost\n");
        Map<String, String> before = TreeSnapshot.of(root);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ApplyLockHolder.class.getName(), root.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader said = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(said.readLine()).isEqualTo("held");

            CliRun apply = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply");
            assertThat(apply.code()).as(apply.err()).isEqualTo(3);
            assertThat(apply.err()).contains("another railyard apply is changing " + root + " (pid " + holder.pid() + " since ")
                    .contains("nothing was changed by this one");
            CliRun undo = CliRun.of("apply", "--undo", "--root", root.toString());
            assertThat(undo.code()).as(undo.err()).isEqualTo(3);
            CliRun dryRun = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString());
            assertThat(dryRun.code()).as("a dry run takes no lock").isZero();
            assertThat(TreeSnapshot.of(root)).isEqualTo(before);
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        CliRun after = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply");
        assertThat(after.code()).as(after.err()).isZero();
    }
}
